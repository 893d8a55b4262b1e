"""Runs MERMAID's released control loop (main.py's CheckAgent) on claims, unmodified.

Only the endpoints are redirected, from outside the reference's files:
- both OpenAI backends get a client on the parity proxy (main.py builds them for api.openai.com or Together);
- the MCP tool servers main.py connects for FacTool-QA / BingCheck / Factcheck-Bench (search_tool.py,
  wikipedia_tool.py, googlescholar_tool.py, in that order) are started through mermaid_mcp_server.py, which
  reassigns their searchapi.io and MediaWiki URLs to the loopback evidence server.
The evidence memory is a file of this run (empty at the first claim), shared by the claims in order, as
main.py shares one file across a dataset.
Usage: mermaid_driver.py <reference> <llm base url> <evidence url> <model> <claims.jsonl> <out.jsonl> <memory.json>
"""
import asyncio
import json
import os
import sys

reference, llm_url, evidence_url, model, claims_path, out_path, memory_path = sys.argv[1:8]
here = os.path.dirname(os.path.abspath(__file__))
work = os.path.dirname(os.path.abspath(out_path))
os.chdir(reference)
sys.path.insert(0, reference)

import main as released  # noqa: E402  (the reference's main.py)
from openai import OpenAI  # noqa: E402

SERVERS = ["src/server/search_tool.py", "src/server/wikipedia_tool.py", "src/server/googlescholar_tool.py"]


def wrapper_for(server):
    """main.py runs `python <script>`: a two-line script per server that starts it through mermaid_mcp_server.py."""
    path = os.path.join(work, "mcp_" + os.path.basename(server))
    with open(path, "w") as f:
        f.write("import runpy, sys\n")
        f.write(f"sys.argv = [{os.path.join(here, 'mermaid_mcp_server.py')!r}, {os.path.join(reference, server)!r}, {evidence_url!r}]\n")
        f.write("runpy.run_path(sys.argv[0], run_name='__main__')\n")
    return path


async def run():
    with open(claims_path) as claims, open(out_path, "a") as out:
        rows = [json.loads(line) for line in claims if line.strip()]
        agent = released.CheckAgent(model, model, memory_file=memory_path)
        await agent.connect_to_servers([wrapper_for(server) for server in SERVERS])
        print("patch: CheckAgent.decompose_agent.client, react_agent.client -> OpenAI(base_url=<parity proxy>, timeout=900 s: the one-slot local model queues calls)", file=sys.stderr)
        print("patch: search_tool.search_api.base_url, googlescholar_tool.search_api.base_url -> <evidence>/api/v1/search; "
              "wikipedia_tool.wikipedia_client.api_url -> <evidence>/w/api.php", file=sys.stderr)
        print("patch: memory file -> an empty file of this run (not the released memory/factool_evidence_memory.json)", file=sys.stderr)
        try:
            for row in rows:
                client = OpenAI(api_key="local", base_url=llm_url, timeout=900, default_headers={"x-parity-tag": row["id"]})
                agent.decompose_agent.client = client
                agent.react_agent.client = client
                try:
                    result = await agent.process_claim(row["id"], row["claim"])
                    answer = result["answer"]
                    out.write(json.dumps({
                        "id": row["id"],
                        "answer": answer,
                        # utils.calculate_metrics.normalize_label: a string is True when its lower case is "true", "1" or "yes"
                        "label": answer if isinstance(answer, bool) else (str(answer).lower() in ["true", "1", "yes"] if isinstance(answer, str) else bool(answer)),
                        "toolCalls": result["tool_calls"],
                        "decomposition": result["decomposition"],
                        "history": result["history"],
                    }) + "\n")
                except Exception as err:  # a crash of the released code is a result, not a bench failure
                    out.write(json.dumps({"id": row["id"], "error": repr(err)}) + "\n")
                out.flush()
        finally:
            await agent.cleanup()


asyncio.run(run())
