"""Runs FIRE's released control loop (eval.fire.verify_atomic_claim.verify_atomic_claim) on claims, unmodified.

No file of the reference is changed. From outside, and each printed as "patch:"/"stub:" on stderr:
- torch, transformers, sentence_transformers, langchain_anthropic and matplotlib are stubbed (the
  module loads SBERT onto CUDA at import); the SBERT similarity of the early stop is replaced by
  verity's lexical similarity (word-count cosine, src/methods/fire/sandbox/fire-similarity.ts),
  which the bench also sets on verity's side (similarity: lexical);
- common.modeling.ChatOpenAI gets the parity proxy's base_url, a placeholder key and the claim's tag;
- query_serper._SERPER_URL points at the loopback evidence server, and its requests carry the tag.
Usage: fire_driver.py <reference> <llm base url> <evidence url> <model> <claims.jsonl> <out.jsonl>
"""
import json
import math
import re
import sys
import types
from collections import Counter

reference, llm_url, evidence_url, model, claims_path, out_path = sys.argv[1:7]
sys.path.insert(0, reference)


def note(line):
    print(line, file=sys.stderr, flush=True)


def lexical_similarity(a, b):
    left, right = Counter(re.findall(r"[^\W_]+", a.lower())), Counter(re.findall(r"[^\W_]+", b.lower()))
    dot = sum(count * right.get(word, 0) for word, count in left.items())
    norm = math.sqrt(sum(c * c for c in left.values()) * sum(c * c for c in right.values()))
    return 0 if norm == 0 else dot / norm


class _Text:
    """What the stubbed SentenceTransformer.encode returns: the text(s), movable to any device."""

    def __init__(self, value):
        self.value = value

    def to(self, _device):
        return self


class _Score(float):
    def item(self):
        return float(self)


def _stub(name, **attributes):
    module = types.ModuleType(name)
    module.__dict__.update(attributes)
    sys.modules[name] = module
    note(f"stub: {name} ({', '.join(attributes) or 'empty'})")
    return module


_stub("torch", cuda=types.SimpleNamespace(is_available=lambda: False), device=lambda name: name, bfloat16=None)
_stub("transformers", pipeline=None)


class SentenceTransformer:
    def __init__(self, _name):
        pass

    def to(self, _device):
        return self

    def encode(self, texts, convert_to_tensor=True):
        return _Text(texts)


_stub("sentence_transformers", SentenceTransformer=SentenceTransformer,
      util=types.SimpleNamespace(cos_sim=lambda one, many: [[_Score(lexical_similarity(one.value, t)) for t in many.value]]))
_stub("langchain_anthropic", ChatAnthropic=None)
_stub("matplotlib")
_stub("matplotlib.pyplot")
note("patch: sentence_transformers.util.cos_sim = lexical similarity (word-count cosine), not SBERT")

from common import modeling  # noqa: E402  (the reference's modules)
from eval.fire import query_serper  # noqa: E402
from eval.fire import verify_atomic_claim as fire  # noqa: E402

_ChatOpenAI = modeling.ChatOpenAI
current_tag = {"value": "untagged"}


def ChatOpenAI(**kwargs):  # noqa: N802  (stands in for the class)
    return _ChatOpenAI(**kwargs, base_url=llm_url, api_key="local", default_headers={"x-parity-tag": current_tag["value"]})


modeling.ChatOpenAI = ChatOpenAI
note(f"patch: common.modeling.ChatOpenAI(..., base_url={llm_url}, api_key=<placeholder>, default_headers=x-parity-tag)")
query_serper._SERPER_URL = evidence_url
_requests = query_serper.requests
query_serper.requests = types.SimpleNamespace(post=lambda url, headers, params: _requests.post(url, headers={**headers, "x-parity-tag": current_tag["value"]}, params=params))
note(f"patch: eval.fire.query_serper._SERPER_URL = {evidence_url} (requests.post adds x-parity-tag)")

with open(claims_path) as claims, open(out_path, "a") as out:
    for line in claims:
        row = json.loads(line)
        current_tag["value"] = row["id"]
        try:
            rater = modeling.Model(f"openai:{model}")
            final, searches, _usage = fire.verify_atomic_claim(row["claim"], rater)
            answer = None if final is None else final.answer
            out.write(json.dumps({"id": row["id"], "answer": answer, "searches": len(searches["google_searches"])}) + "\n")
        except Exception as err:  # a crash of the released code is a result, not a bench failure
            out.write(json.dumps({"id": row["id"], "error": repr(err)}) + "\n")
        out.flush()
