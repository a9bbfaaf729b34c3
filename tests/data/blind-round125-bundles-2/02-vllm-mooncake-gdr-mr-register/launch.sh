# node: mi300x-07 (AMD Pensando ionic RoCE NICs rocep153s0, rocep233s0); GID index pinned after the start-up failure
export MC_GID_INDEX=1
HIP_VISIBLE_DEVICES=0 vllm serve /models/Qwen3-8B --served-model-name qwen3-8b --port 8100 --max-model-len 8192 \
  --kv-transfer-config '{"kv_connector":"MooncakeConnector","kv_role":"kv_producer"}' > prefill.log 2>&1 &
HIP_VISIBLE_DEVICES=4 vllm serve /models/Qwen3-8B --served-model-name qwen3-8b --port 8200 --max-model-len 8192 \
  --kv-transfer-config '{"kv_connector":"MooncakeConnector","kv_role":"kv_consumer"}' > decode.log 2>&1 &
