"""The MCP face: the catalog served to Model Context Protocol hosts (`albedo-skills mcp`, docs/mcp.md).

`offer.py` decides what is offered from one catalog snapshot without the MCP library; `server.py` is the one
module that imports the library (the `mcp` extra) and answers the protocol's methods from the current offer.
"""
