"""Stage 4, describe: a decided report in, the same verdict with the context a reader needs out.

The evidence excerpt (the chain's lines with the lines around them), where each log ends and its
warnings when nothing failed, the glossary. These passes may re-read inputs and add notes; they
never change the verdict or its confidence.
"""
