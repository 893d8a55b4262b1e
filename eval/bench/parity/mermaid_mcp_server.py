"""Starts one of MERMAID's released MCP tool servers with its endpoint pointed at the loopback evidence server.

The server module is imported from the user's checkout, unmodified; only its client's URL attribute is
reassigned before `mcp.run(transport="stdio")` (the module's own entry point, which `python <file>` would run).
Usage: mermaid_mcp_server.py <server file> <evidence url>
"""
import importlib.util
import sys

server_file, evidence_url = sys.argv[1:3]
spec = importlib.util.spec_from_file_location("mermaid_tool_server", server_file)
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
if hasattr(module, "search_api"):  # search_tool.py, googlescholar_tool.py: searchapi.io
    module.search_api.base_url = evidence_url + "/api/v1/search"
if hasattr(module, "wikipedia_client"):  # wikipedia_tool.py: the MediaWiki API of list=search
    module.wikipedia_client.api_url = evidence_url + "/w/api.php"
module.mcp.run(transport="stdio")
