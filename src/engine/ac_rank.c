/* SPDX-License-Identifier: MIT */
/* ac_rank.c - the byte-frequency model the scan-path choice and the trie's
 * sibling order use.
 *
 * Owns: each byte's rank by its frequency in typical text (a mixed
 * English, C and man-page corpus: the text of a Debian system; 0 the
 * rarest, 255 the most common, space), the frequency a rank stands for,
 * and the share of text bytes in a 256-bit set.  Tables only: no state.
 */
#include "ac_internal.h"

/* The frequency of a byte the rank table puts in each band of 8 ranks
 * (rank / 8), per million bytes: the sorted byte frequencies of Debian
 * changelogs, C headers and man pages, averaged (they agree within a
 * factor of 2 at every rank). */
static const uint32_t rank_ppm[32] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	1, 1, 2, 18, 82, 284, 657, 1231, 1746, 2574, 3879, 5564, 8168, 15231, 26306, 59256,
};

const uint8_t ac_rank_table[256] = {
	  0,   1,   2,   3,   4,   5,   6,  91,   7, 196, 242,   8, 142,   9,  10,  11,
	 12,  13,  14,  15,  16,  17,  18,  19,  20,  21,  22,  23,  24,  25,  26,  27,
	255, 155, 197, 190, 156, 162, 175, 183, 209, 208, 214, 170, 224, 225, 234, 249,
	222, 211, 213, 199, 189, 181, 187, 176, 182, 193, 203, 192, 179, 191, 180, 154,
	171, 219, 205, 215, 207, 229, 206, 201, 200, 230, 177, 174, 217, 202, 220, 216,
	212, 169, 226, 228, 231, 204, 184, 194, 186, 195, 178, 173, 218, 172, 163, 236,
	165, 248, 239, 243, 241, 254, 235, 233, 240, 252, 185, 210, 245, 237, 246, 250,
	244, 198, 247, 251, 253, 238, 227, 221, 223, 232, 188, 168, 164, 167, 166,  28,
	160,  92, 122, 125, 136, 120,  84, 110, 109,  93,  76,  77,  78, 130,  94, 105,
	 95,  29, 106, 148,  96,  85,  90,  30, 129, 151,  79,  86, 152, 153,  31, 119,
	137, 139, 134, 132, 147, 114, 115, 141, 143, 159,  97, 124,  80, 144,  98, 102,
	111, 150, 116, 145, 138, 133, 149,  87, 117,  88, 113, 126, 135, 118,  99, 123,
	 32,  33, 158, 157, 131, 146, 107,  34,  89, 108,  35,  36,  37,  38, 112, 100,
	127, 101,  39,  40,  41,  42,  43,  44, 103, 104,  45,  46,  47,  48,  49,  50,
	140, 128, 161,  51,  81,  52,  53,  82,  83,  54,  55,  56,  57,  58,  59, 121,
	 60,  61,  62,  63,  64,  65,  66,  67,  68,  69,  70,  71,  72,  73,  74,  75,
};

double ac_byte_freq(uint8_t b)
{
	return rank_ppm[ac_rank_table[b] / 8] / 1e6;
}

double ac_set_freq(const uint64_t set[4])
{
	double share = 0;
	for (unsigned b = 0; b < 256; b++)
		if (ac_byte_in(set, (uint8_t)b))
			share += ac_byte_freq((uint8_t)b);
	return share < 1 ? share : 1;
}
