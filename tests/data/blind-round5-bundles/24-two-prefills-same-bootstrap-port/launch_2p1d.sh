#!/bin/bash
# 2P1D on two H20 nodes: two TP4 prefills share node21, TP8 decode on node22
MODEL=Qwen/Qwen3-235B-A22B-Instruct-2507-FP8
COMMON="--model-path $MODEL --trust-remote-code --disaggregation-transfer-backend mooncake --host 0.0.0.0 --chunked-prefill-size 16384 --max-running-requests 128"
if [ "$ROLE" = prefill ]; then
  CUDA_VISIBLE_DEVICES=0,1,2,3 python3 -m sglang.launch_server $COMMON --disaggregation-mode prefill --tp 4 --port 30000 \
      --disaggregation-ib-device mlx5_0,mlx5_1,mlx5_2,mlx5_3 > prefill-0.log 2>&1 &
  sleep 10
  CUDA_VISIBLE_DEVICES=4,5,6,7 python3 -m sglang.launch_server $COMMON --disaggregation-mode prefill --tp 4 --port 30002 \
      --disaggregation-ib-device mlx5_4,mlx5_5,mlx5_6,mlx5_7 > prefill-1.log 2>&1 &
elif [ "$ROLE" = decode ]; then
  python3 -m sglang.launch_server $COMMON --disaggregation-mode decode --tp 8 --port 30001 \
      --disaggregation-ib-device mlx5_0,mlx5_1,mlx5_2,mlx5_3,mlx5_4,mlx5_5,mlx5_6,mlx5_7 > decode.log 2>&1 &
else
  python3 -m sglang_router.launch_router --pd-disaggregation --policy round_robin \
      --prefill http://10.61.4.21:30000 8998 --prefill http://10.61.4.21:30002 8998 \
      --decode http://10.61.4.22:30001 --host 0.0.0.0 --port 8000 > router.log 2>&1 &
fi
wait
