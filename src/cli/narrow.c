/* SPDX-License-Identifier: MIT */
/* narrow.c - the narrow options of the grep layer's modules (see
 * narrow.h), each a function of the config alone.
 */
#include "narrow.h"

#include <inttypes.h>
#include <stdio.h>

struct matcher_spec matcher_spec_of(const struct config *cfg)
{
	return (struct matcher_spec){
		.syntax = cfg->syntax,
		.engine = cfg->engine,
		.ignore_case = cfg->ignore_case,
		.word = cfg->word_regexp,
		.line = cfg->line_regexp,
		.utf8 = cfg->utf8_locale,
		.eol = config_eol(cfg),
		.binary_text = cfg->binary == BINARY_TEXT,
		.scan_path = cfg->scan_path,
		.simd = cfg->simd,
	};
}

struct matcher *matcher_for_config(const struct config *cfg, struct pattern_set *patterns,
				   unsigned threads, const char **error)
{
	const struct matcher_spec spec = matcher_spec_of(cfg);
	return matcher_build(&spec, patterns, threads, error);
}

bool pattern_keys_wanted(const struct config *cfg)
{
	return cfg->show_pattern != SHOW_PATTERN_NONE || cfg->count_per_pattern || cfg->json ||
	       cfg->all_patterns;
}

struct print_options print_options_of(const struct config *cfg)
{
	enum print_report report = cfg->json ? (cfg->quiet ? PRINT_REPORT_NONE : PRINT_REPORT_JSON_SUMMARY)
				   : cfg->stats ? PRINT_REPORT_STATS
						: PRINT_REPORT_NONE;
	return (struct print_options){
		.line_number = cfg->line_number,
		.byte_offset = cfg->byte_offset,
		.null_after_name = cfg->null_after_name,
		.initial_tab = cfg->initial_tab,
		.invert = cfg->invert,
		.eol = config_eol(cfg),
		.group_separator = cfg->group_separator,
		.color = cfg->color,
		.colors = cfg->colors,
		.show_pattern = cfg->show_pattern,
		.show_all_patterns = cfg->show_all_patterns,
		.overlapping = cfg->overlapping,
		.json = cfg->json,
		.report = report,
	};
}

struct search_options search_options_of(const struct config *cfg)
{
	return (struct search_options){
		.eol = config_eol(cfg),
		.invert = cfg->invert,
		.only_matching = cfg->only_matching,
		.line_regexp = cfg->line_regexp,
		.line_number = cfg->line_number,
		.initial_tab = cfg->initial_tab,
		.overlapping = cfg->overlapping,
		.count = cfg->count,
		.count_matches = cfg->count_matches,
		.count_per_pattern = cfg->count_per_pattern,
		.all_patterns = cfg->all_patterns,
		.reports_files = config_reports_files(cfg),
		.prints_lines = config_prints_lines(cfg),
		.stats = cfg->stats || cfg->json,
		.json = cfg->json,
		.utf8_locale = cfg->utf8_locale,
		.binary = cfg->binary,
		.max_count = cfg->max_count,
		.before = cfg->before,
		.after = cfg->after,
		.group_separator = cfg->group_separator,
	};
}

struct run_options run_options_of(const struct config *cfg)
{
	return (struct run_options){
		.input = {
			.io = cfg->io == IO_MMAP ? INPUT_IO_MMAP : cfg->io == IO_READ ? INPUT_IO_READ : INPUT_IO_AUTO,
			.read_chunk = cfg->read_chunk,
			.eol = config_eol(cfg),
			.keep_lines = cfg->before > 0 ? (size_t)cfg->before : 0,
			.decompress = cfg->decompress,
			.decode_ahead = cfg->threads != 1,
		},
		.no_messages = cfg->no_messages,
		.label = cfg->label,
		.with_filename = cfg->with_filename,
		.several_inputs = cfg->n_files > 1 || cfg->files_from,
		.devices = cfg->devices,
		.directories = cfg->directories,
		.list = cfg->list,
		.count = cfg->count,
		.count_matches = cfg->count_matches,
		.quiet = cfg->quiet,
		.reports_files = config_reports_files(cfg),
		.prints_lines = config_prints_lines(cfg),
		.max_count = cfg->max_count,
		.before = cfg->before,
		.after = cfg->after,
		.line_number = cfg->line_number,
		.json = cfg->json,
		.line_buffered = cfg->line_buffered,
		.engine = cfg->engine,
		.count_per_pattern = cfg->count_per_pattern,
		.all_patterns = cfg->all_patterns,
		.include_zero = cfg->include_zero,
		.count_unseen = cfg->count_unseen,
	};
}

struct walk_options walk_options_of(const struct config *cfg)
{
	return (struct walk_options){
		.recurse = (int)cfg->recurse,
		.devices = (int)cfg->devices,
		.includes = cfg->includes, .n_includes = cfg->n_includes,
		.excludes = cfg->excludes, .n_excludes = cfg->n_excludes,
		.exclude_dirs = cfg->exclude_dirs, .n_exclude_dirs = cfg->n_exclude_dirs,
		.filter_order = cfg->filter_order,
	};
}

/* The options a record stream's header states (records.h), into
 * buf[RECORDS_OPTIONS_MAX]. */
static void records_header_options(const struct config *cfg, char *buf)
{
	const struct { bool on; const char *text; } flags[] = {
		{cfg->ignore_case, " -i"}, {cfg->word_regexp, " -w"}, {cfg->line_regexp, " -x"},
		{cfg->invert, " -v"}, {cfg->null_data, " -z"}, {cfg->count, " -c"},
		{cfg->count_matches, " --count-matches"}, {cfg->list == LIST_MATCHING, " -l"},
		{cfg->list == LIST_NONMATCHING, " -L"}, {cfg->quiet, " -q"},
		{cfg->line_number, " -n"}, {cfg->binary == BINARY_TEXT, " -a"},
		{cfg->binary == BINARY_WITHOUT_MATCH, " -I"}, {cfg->overlapping, " --overlapping"},
		{cfg->utf8_locale, " utf8"},
	};
	int n = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
		if (flags[i].on)
			n += snprintf(buf + n, RECORDS_OPTIONS_MAX - (size_t)n, "%s", flags[i].text);
	const long long nums[] = {cfg->max_count, cfg->after, cfg->before};
	for (size_t i = 0; i < 3; i++)
		if (nums[i] >= 0)
			n += snprintf(buf + n, RECORDS_OPTIONS_MAX - (size_t)n, " -%c %lld", "mAB"[i], nums[i]);
	snprintf(buf + n, RECORDS_OPTIONS_MAX - (size_t)n, " patterns=%016" PRIx64, cfg->pattern_hash);
}

void scaleout_options_of(const struct config *cfg, struct scaleout_options *so)
{
	*so = (struct scaleout_options){
		.records = cfg->records,
		.has_range = cfg->has_range,
		.range_start = cfg->has_range ? cfg->range_start : 0,
		.range_end = cfg->has_range ? cfg->range_end : RANGE_TO_END,
		.eol = config_eol(cfg),
		.line_number = cfg->line_number,
		.only_matching = cfg->only_matching,
		.overlapping = cfg->overlapping,
		.invert = cfg->invert,
		.max_count = cfg->max_count,
		.initial_tab = cfg->initial_tab,
		.with_filename = cfg->with_filename,
		.before = cfg->before,
		.after = cfg->after,
		.prints_lines = config_prints_lines(cfg),
		.quiet = cfg->quiet,
		.listed = cfg->files_from != NULL,
		.operands = cfg->files,
		.n_operands = cfg->n_files,
		.encoding_checked = cfg->utf8_locale && cfg->binary != BINARY_TEXT,
	};
	records_header_options(cfg, so->header);
}
