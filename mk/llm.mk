# Decoder LLMs (issue 17): rfl-estimate's LLM part lives in tools/estimate_llm.h.
build/rfl-estimate: tools/estimate_llm.h
