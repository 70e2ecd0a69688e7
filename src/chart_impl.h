/* chart part: implementation. Filled in by its issue. */
