/* reduce part: API (declarations). Filled in by its issue. */
