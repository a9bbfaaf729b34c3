#!/bin/bash
# decode node (2 x L40S), started by the on-call runbook
docker run -d --name vllm-decode --hostname decode-0 \
  --gpus '"device=0,1"' \
  --network host \
  -e NCCL_DEBUG=WARN \
  -e HF_HUB_OFFLINE=1 \
  -e VLLM_NIXL_SIDE_CHANNEL_HOST=10.40.1.22 \
  -v /data/hf-cache:/root/.cache/huggingface \
  vllm/vllm-openai:v0.10.2 \
  --model RedHatAI/Llama-3.3-70B-Instruct-FP8-dynamic \
  --tensor-parallel-size 2 \
  --max-model-len 16384 \
  --gpu-memory-utilization 0.92 \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}'
