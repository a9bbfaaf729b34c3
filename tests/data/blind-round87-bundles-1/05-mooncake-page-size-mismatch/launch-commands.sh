# node A (prefill)
python3 -m sglang.launch_server --model-path /models/Qwen3-30B-A3B-Instruct-2507 --host 0.0.0.0 --port 30000 \
  --tp 1 --mem-fraction-static 0.85 \
  --disaggregation-mode prefill --disaggregation-transfer-backend mooncake \
  --disaggregation-ib-device mlx5_2 --disaggregation-bootstrap-port 8998 > prefill.log 2>&1 &

# node B (decode)
python3 -m sglang.launch_server --model-path /models/Qwen3-30B-A3B-Instruct-2507 --host 0.0.0.0 --port 30001 \
  --tp 1 --mem-fraction-static 0.85 --page-size 64 --max-running-requests 512 \
  --disaggregation-mode decode --disaggregation-transfer-backend mooncake \
  --disaggregation-ib-device mlx5_2 > decode.log 2>&1 &

# node A (router)
python3 -m sglang_router.launch_router --pd-disaggregation \
  --prefill http://192.168.40.11:30000 8998 --decode http://192.168.40.12:30001 \
  --host 0.0.0.0 --port 8000
