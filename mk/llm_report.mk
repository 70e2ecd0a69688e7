# rfl-report's LLM part (issue 17): its own headers.
build/rfl-report: tools/report_llm.h tools/report_llm_charts.h
