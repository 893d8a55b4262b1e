"""Runs EMULATE's released control loop (cli.fact_check) on claims, unmodified.

Only the endpoints are redirected, from outside the reference's files: the OpenAI client gets the
parity proxy's base_url, and utils.Serper is replaced by a class with the same query() contract that
POSTs to the loopback evidence server instead of https://google.serper.dev.
Usage: emulate_driver.py <reference> <llm base url> <evidence url> <model> <claims.jsonl> <out.jsonl>
"""
import json
import os
import sys
import urllib.request

reference, llm_url, evidence_url, model, claims_path, out_path = sys.argv[1:7]
os.chdir(reference)  # the agents open prompts/*.txt relative to the working directory
sys.path.insert(0, reference)

import cli  # noqa: E402  (the reference's module)
import utils  # noqa: E402
from openai import OpenAI  # noqa: E402


class LoopbackSerper(utils.Serper):
    def __init__(self, tag):
        self.tag = tag

    def query(self, _query):
        request = urllib.request.Request(evidence_url + "/search", data=json.dumps({"q": _query}).encode(),
                                         headers={"Content-Type": "application/json", "x-parity-tag": self.tag})
        with urllib.request.urlopen(request) as response:
            results = json.loads(response.read().decode("utf-8"))
        results = [utils.SerperResult(item) for item in results["organic"] if "snippet" in item.keys()]
        results.sort(key=lambda item: item.position)
        return results


with open(claims_path) as claims, open(out_path, "a") as out:
    for line in claims:
        row = json.loads(line)
        client = OpenAI(api_key="local", base_url=llm_url, default_headers={"x-parity-tag": row["id"]})
        try:
            label = cli.fact_check(row["claim"], model, client, LoopbackSerper(row["id"]), 4, 2, False)
            out.write(json.dumps({"id": row["id"], "label": label}) + "\n")
        except Exception as err:  # a crash of the released code is a result, not a bench failure
            out.write(json.dumps({"id": row["id"], "error": repr(err)}) + "\n")
        out.flush()
