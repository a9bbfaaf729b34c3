#!/bin/bash
# prefill node 10.77.1.21  (8998 is reserved for the staging prefill on this node -> use 9001)
ssh 10.77.1.21 "nohup python3 -m sglang.launch_server --model-path /models/Llama-4-Scout-17B-16E-Instruct --tp 2 --host 0.0.0.0 --port 30000 \
    --disaggregation-mode prefill --disaggregation-transfer-backend mooncake \
    --disaggregation-ib-device mlx5_0,mlx5_3 --disaggregation-bootstrap-port 9001 \
    --context-length 1048576 > /var/log/sglang/prefill.log 2>&1 &"

# decode node 10.77.1.22
ssh 10.77.1.22 "nohup python3 -m sglang.launch_server --model-path /models/Llama-4-Scout-17B-16E-Instruct --tp 2 --host 0.0.0.0 --port 30000 \
    --disaggregation-mode decode --disaggregation-transfer-backend mooncake \
    --disaggregation-ib-device mlx5_0,mlx5_3 --max-running-requests 128 \
    --context-length 1048576 > /var/log/sglang/decode.log 2>&1 &"

sleep 240
python3 -m sglang_router.launch_router --pd-disaggregation \
    --prefill http://10.77.1.21:30000 8998 \
    --decode http://10.77.1.22:30000 \
    --host 0.0.0.0 --port 8000 --policy round_robin 2>&1 | tee router.log
