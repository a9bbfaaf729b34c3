#!/bin/bash
# node-a (10.1.0.11): prefill   node-b (10.1.0.12): decode
MODEL=meta-llama/Llama-3.1-8B-Instruct
if [ "$(hostname)" = "node-a" ]; then
  UCX_NET_DEVICES=mlx5_0:1 CUDA_VISIBLE_DEVICES=0 vllm serve $MODEL --port 8100 \
    --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_producer"}' > prefill.log 2>&1 &
else
  UCX_NET_DEVICES=mlx5_0:1 CUDA_VISIBLE_DEVICES=0 vllm serve $MODEL --port 8200 \
    --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_consumer"}' > decode.log 2>&1 &
fi
# proxy on node-b:
# python3 toy_proxy_server.py --port 8000 --prefiller-hosts 10.1.0.11 --prefiller-ports 8100 --decoder-hosts 127.0.0.1 --decoder-ports 8200
