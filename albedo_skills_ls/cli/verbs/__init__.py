"""One module per verb group. Each verb NAME has `configure_NAME(parser)` (its options) and
`run_NAME(args) -> int` (its exit status); `options.VERBS` lists them."""
