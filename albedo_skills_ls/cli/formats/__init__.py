"""The output formats, one module each: `text` and `prompt` for people and models, `json`, `sarif` and
`github` for machines. Each turns engine values into text and writes nothing itself."""
