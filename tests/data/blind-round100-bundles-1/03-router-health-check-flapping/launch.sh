#!/bin/bash
# router host 10.40.2.5
python3 -m sglang_router.launch_router \
  --pd-disaggregation \
  --prefill http://10.40.2.11:30000 8998 \
  --decode http://10.40.2.21:30001 \
  --host 0.0.0.0 --port 8000 \
  --health-check-endpoint /health_generate \
  --health-check-timeout-secs 2 \
  --health-check-interval-secs 10 \
  --health-failure-threshold 3 \
  --health-success-threshold 2 2>&1 | tee router.log
