# Decoder LLMs: the HF config reader's fuzz harness.
# no count may wrap silently here either (fuzz/hfconfig.ignore: the idioms)
FUZZ_EXTRA_hfconfig = -fsanitize=unsigned-integer-overflow -fsanitize-ignorelist=fuzz/hfconfig.ignore
