"""pdlogdoctor: diagnose failed SGLang prefill/decode-disaggregated deployments from their logs."""

__version__ = "0.1.0"
