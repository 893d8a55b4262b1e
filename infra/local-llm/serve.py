"""verity's local LLM server: llama.cpp's OpenAI-compatible HTTP server, embedded by xllamacpp.

Started detached by infra/local-llm.ts; it serves until SIGTERM or SIGINT.
Usage: serve.py --model FILE --alias NAME --port N --slots N --ctx-per-slot N --threads N [--embedding]
"""
import argparse
import signal
import sys

import xllamacpp


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", required=True)
    parser.add_argument("--alias", required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--slots", type=int, required=True)
    parser.add_argument("--ctx-per-slot", type=int, required=True)
    parser.add_argument("--threads", type=int, required=True)
    parser.add_argument("--embedding", action="store_true")
    args = parser.parse_args()

    params = xllamacpp.CommonParams()
    params.model.path = args.model
    # A set of names: a plain string would be taken as a set of its characters.
    params.model_alias = {args.alias}
    # llama.cpp splits n_ctx across the slots: each slot gets the window verity advertises.
    params.n_ctx = args.ctx_per_slot * args.slots
    params.n_parallel = args.slots
    params.cpuparams.n_threads = args.threads
    params.cpuparams_batch.n_threads = args.threads
    params.port = args.port
    params.hostnames = [args.host]
    params.endpoint_props = True
    params.endpoint_metrics = True
    params.use_jinja = True
    if args.embedding:
        # Chat still works with embeddings on; mean pooling makes /v1/embeddings OpenAI-compatible.
        params.embedding = True
        params.pooling_type = xllamacpp.llama_pooling_type.LLAMA_POOLING_TYPE_MEAN

    # Block the signals before the server's threads start, so only sigwait receives them.
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGINT})
    server = xllamacpp.Server(params)
    print(f"verity-local-llm listening at {server.listening_address}", flush=True)
    signal.sigwait({signal.SIGTERM, signal.SIGINT})
    return 0


if __name__ == "__main__":
    sys.exit(main())
