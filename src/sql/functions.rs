//! The functions a read-only statement may call and stay FREE: built-ins
//! of the clients' databases that compute, aggregate or describe, and
//! read nothing but the query's own rows and the catalogue. Closed: a
//! name not here (`pg_read_file`, `lo_export`, `dblink`, `pg_sleep`,
//! `nextval`, `set_config`, `load_extension`, `readfile`, `writefile`,
//! `read_csv`, ClickHouse's `file` and `url`, a user's own function)
//! asks. Type names stand here too, for `CAST(x AS varchar(10))`.

/// Sorted, lower case: checked by a test.
#[rustfmt::skip]
pub(super) const HARMLESS: &[&str] = &[
    "abs", "age", "array_agg", "array_length", "array_position", "array_to_string", "ascii",
    "avg", "bigint", "bit", "bit_and", "bit_length", "bit_or", "bool_and", "bool_or", "btrim",
    "cardinality", "cast", "cbrt", "ceil", "ceiling", "char", "char_length", "character",
    "character_length", "chr", "coalesce", "concat", "concat_ws", "corr", "cos", "count",
    "covar_pop", "covar_samp", "cume_dist", "current_database", "current_schema", "date",
    "date_format", "date_part", "date_trunc", "datediff", "datetime", "day", "dayofweek",
    "decimal", "degrees", "dense_rank", "double", "every", "exp", "extract", "first_value",
    "float", "floor", "format_type", "generate_series", "greatest", "group_concat", "hex",
    "hour", "ifnull", "iif", "initcap", "instr", "int", "integer", "interval", "json_agg",
    "json_array", "json_array_length", "json_build_array", "json_build_object",
    "json_extract", "json_object", "json_typeof", "jsonb_agg", "jsonb_array_length",
    "jsonb_build_array", "jsonb_build_object", "jsonb_pretty", "jsonb_typeof", "julianday",
    "lag", "last_value", "lead", "least", "left", "length", "ln", "log", "log10", "lower",
    "lpad", "ltrim", "max", "md5", "min", "minute", "mod", "month", "now", "nth_value",
    "ntile", "nullif", "numeric", "nvl", "octet_length", "percent_rank", "percentile_cont",
    "percentile_disc", "pg_column_size", "pg_database_size", "pg_get_constraintdef",
    "pg_get_indexdef", "pg_get_viewdef", "pg_indexes_size", "pg_relation_size",
    "pg_size_pretty", "pg_table_size", "pg_total_relation_size", "pg_typeof", "pi",
    "position", "pow", "power", "printf", "quote_ident", "quote_literal", "radians", "rank",
    "real", "regexp_replace", "repeat", "replace", "reverse", "right", "round", "row_number",
    "rpad", "rtrim", "second", "sign", "sin", "smallint", "split_part", "sqlite_version",
    "sqrt", "stddev", "stddev_pop", "stddev_samp", "strftime", "string_agg", "strpos",
    "substr", "substring", "sum", "tan", "text", "time", "timestamp", "timestamptz", "to_char",
    "to_date", "to_json", "to_jsonb", "to_number", "to_timestamp", "total", "translate",
    "trim", "trunc", "typeof", "unicode", "unixepoch", "upper", "var_pop", "var_samp",
    "varchar", "variance", "version", "year",
];

/// Whether a function of this name (as written, any case) is harmless.
pub(super) fn is_harmless(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    HARMLESS.binary_search(&lower.as_str()).is_ok()
}
