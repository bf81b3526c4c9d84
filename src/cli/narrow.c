/* narrow.c - the narrow options of the grep layer's modules (see
 * narrow.h), each a function of the config alone.
 */
#include "narrow.h"

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
