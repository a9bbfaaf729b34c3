#!/usr/bin/env bash
# 1P1D vLLM + NixlConnector, Llama-3.1-8B-Instruct, one GPU per role
# node1 = 10.30.0.11 (prefill), node2 = 10.30.0.12 (decode), proxy on node1
set -euo pipefail
MODEL=/models/Llama-3.1-8B-Instruct
export UCX_TLS=rc,cuda_copy,cuda_ipc
export UCX_NET_DEVICES=mlx5_0:1
export VLLM_NIXL_SIDE_CHANNEL_PORT=5600
export VLLM_NIXL_ABORT_REQUEST_TIMEOUT=60
KV='{"kv_connector":"NixlConnector","kv_role":"kv_both"}'

if [[ "$ROLE" == prefill ]]; then
  CUDA_VISIBLE_DEVICES=0 vllm serve $MODEL --host 0.0.0.0 --port 8100 \
    --max-model-len 16384 --gpu-memory-utilization 0.9 \
    --kv-transfer-config "$KV" 2>&1 | tee prefill-gpu-node1.log
elif [[ "$ROLE" == decode ]]; then
  CUDA_VISIBLE_DEVICES=0 vllm serve $MODEL --host 0.0.0.0 --port 8200 \
    --max-model-len 16384 --gpu-memory-utilization 0.9 \
    --kv-transfer-config "$KV" 2>&1 | tee decode-gpu-node2.log
else
  python3 toy_proxy_server.py --host 0.0.0.0 --port 8000 \
    --prefiller-hosts 10.30.0.11 --prefiller-ports 8100 \
    --decoder-hosts 10.30.0.12 --decoder-ports 8200 2>&1 | tee proxy.log
fi
