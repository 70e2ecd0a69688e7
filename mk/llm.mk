# Decoder LLMs (issue 17): rfl-estimate's LLM part lives in tools/estimate_llm.h.
build/rfl-estimate: tools/estimate_llm.h
# no count may wrap silently here either (fuzz/hfconfig.ignore: the idioms)
FUZZ_EXTRA_hfconfig = -fsanitize=unsigned-integer-overflow -fsanitize-ignorelist=fuzz/hfconfig.ignore
