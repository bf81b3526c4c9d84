# SPDX-License-Identifier: MIT
# Type hints of the acgrep module (docstrings: acgrep/__init__.py).
import os
from typing import Any, Generic, Iterable, Iterator, Literal, Sequence, TypeVar, overload

__version__: str

_Data = bytes | bytearray | memoryview | str
_T = TypeVar("_T")

class Set(Generic[_T]):
    @overload
    def __init__(self: Set[int], patterns: Iterable[str | bytes], *, tags: None = ...,
                 ignore_case: bool | Literal["ascii", "unicode"] = ...,
                 whole_words: bool = ..., overlapping: bool = ...) -> None: ...
    @overload
    def __init__(self: Set[_T], patterns: Iterable[str | bytes], *, tags: Sequence[_T],
                 ignore_case: bool | Literal["ascii", "unicode"] = ...,
                 whole_words: bool = ..., overlapping: bool = ...) -> None: ...
    def __len__(self) -> int: ...
    @property
    def patterns(self) -> list[bytes]: ...
    def find_iter(self, data: _Data) -> Iterator[tuple[int, int, _T]]: ...
    def count(self, data: _Data) -> int: ...
    def contains(self, data: _Data) -> bool: ...
    def search_file(self, path: str | bytes | os.PathLike[Any], *,
                    decompress: bool = ...) -> Iterator[tuple[int, int, _T]]: ...
