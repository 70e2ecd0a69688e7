/* ---- reducer: streaming Nsight Compute / nvprof CSV -> work ----------------
   A push parser over caller memory: rfl_reduce_init(state, desc, scratch,
   size), rfl_reduce_push(state, bytes, len) as often as needed (chunks split
   anywhere; the result is the same for any chunking), rfl_reduce_finish(state,
   result). Nothing is allocated; the state is a plain struct the caller owns.

   Formats, detected from the bytes (preamble lines such as ==PROF== and the
   application's own output are skipped; BOM, CRLF, quoted fields with commas
   and doubled quotes, thousands separators, n/a and empty values handled):
     ncu --csv --page raw     header row, units row, one row per kernel
     ncu --csv (details)      one row per kernel per metric, own unit column
     nvprof --csv --metrics   Device,Kernel,Invocations,Metric Name,...,Avg
     nvprof --csv (summary)   Type,Time(%),Time,Calls,Avg,Min,Max,Name
     nvprof --csv --print-gpu-trace   Start,Duration,...,Name
   Several sections may follow each other in one stream (e.g. an nvprof
   summary then its metrics): a blank line or a "==" line ends a section.

   Scratch: RFL_REDUCE_SCRATCH_SIZE(max_columns) bytes = a carry of
   RFL_REDUCE_CARRY bytes (holds one partial header name or number between
   chunks) + 3 bytes per CSV column (the column -> metric map, and the
   length of the run of unused columns from each column, which lets the
   parser skip them 64 bytes at a time). A `--set full` raw page has ~2,100
   columns; RFL_REDUCE_SCRATCH_DEFAULT (24,832 bytes) takes 8,192. Too many columns -> RFL_ERR_BUFFER; a number
   longer than the carry -> RFL_ERR_FIELD_TOO_LONG; a kernel name longer than
   RFL_REDUCE_NAME_MAX-1 is kept truncated and flagged (name_truncated).

   Exactness: counts (FLOPs, bytes, instructions) and times in ns accumulate
   in uint64; an overflow saturates at UINT64_MAX and is flagged
   (RFL_REDUCE_SATURATED), never wraps. A quantity whose metrics are not in
   the file is unknown (RFL_UNKNOWN_* bit), never 0. */
#ifndef RFL_REDUCE_API_H
#define RFL_REDUCE_API_H

#ifdef __cplusplus
extern "C" {
#endif

#define RFL_REDUCE_NAME_MAX 256  /* kernel name bytes kept, with the NUL */
#define RFL_REDUCE_TOP_MAX 32    /* most kernels rfl_reduce_result.top holds */
#define RFL_REDUCE_WARN_MAX 16   /* warnings kept (more are counted) */
#define RFL_REDUCE_WARN_TEXT 320 /* bytes per warning text, with the NUL */
#define RFL_REDUCE_CARRY 256     /* partial-field carry taken from scratch */
#define RFL_REDUCE_SCRATCH_SIZE(max_columns) \
    ((size_t)RFL_REDUCE_CARRY + 3 * (size_t)(max_columns))
#define RFL_REDUCE_SCRATCH_DEFAULT RFL_REDUCE_SCRATCH_SIZE(8192)

typedef enum rfl_csv_format {
    RFL_CSV_UNKNOWN = 0,
    RFL_CSV_NCU_RAW,         /* ncu --csv --page raw */
    RFL_CSV_NCU_DETAILS,     /* ncu --csv (details page) */
    RFL_CSV_NVPROF_METRICS,  /* nvprof --csv --metrics ... */
    RFL_CSV_NVPROF_SUMMARY,  /* nvprof --csv (GPU activities summary) */
    RFL_CSV_NVPROF_TRACE     /* nvprof --csv --print-gpu-trace */
} rfl_csv_format;
/* "ncu-raw", "ncu-details", "nvprof-metrics", "nvprof-summary",
   "nvprof-trace", "unknown". */
RFL_API const char *rfl_csv_format_name(rfl_csv_format f);

/* Number convention. AUTO detects it from the file: "3,355,641.60" is US,
   "27.595.520" or "65,77" is EU; a value that reads both ways ("1,280")
   before any unambiguous one in the same row is RFL_ERR_LOCALE. */
typedef enum rfl_locale {
    RFL_LOCALE_AUTO = 0,
    RFL_LOCALE_US,  /* 1,234.5 */
    RFL_LOCALE_EU   /* 1.234,5 */
} rfl_locale;

/* Warning codes (rfl_reduce_warning.code). Each comes with a text that says
   what it means and what to do. */
typedef enum rfl_reduce_warn {
    RFL_WARN_NONE = 0,
    RFL_WARN_TENSOR_UNCOUNTED, /* tensor-core kernels (by name) with no FLOP count */
    RFL_WARN_TENSOR_ESTIMATED, /* tensor FLOPs = instructions x a factor */
    RFL_WARN_NO_FP_COUNTERS,   /* no FLOP counter of any precision */
    RFL_WARN_ABOVE_ROOF,       /* a kernel or the total above the roof */
    RFL_WARN_BELOW_COMPULSORY, /* DRAM writes below an elementwise output */
    RFL_WARN_HIERARCHY,        /* AI(L1) > AI(L2) or AI(L2) > AI(DRAM) */
    RFL_WARN_LOW_CLOCK,        /* profile clock well below the boost clock */
    RFL_WARN_AUTO_UNITS,       /* --print-units auto: digits lost */
    RFL_WARN_RATE_DERIVED,     /* counts derived from rounded rates */
    RFL_WARN_NAME_TRUNCATED,   /* kernel names longer than NAME_MAX */
    RFL_WARN_SATURATED,        /* a uint64 total saturated */
    RFL_WARN_GROUPS_FULL,      /* by-name table full: rest under "other" */
    RFL_WARN_NO_TIME,          /* no time metric: FLOP/s unknown */
    RFL_WARN_PARTIAL_COUNTERS, /* e.g. ffma without fadd/fmul: lower bound */
    RFL_WARN_NO_TENSOR_COUNTERS, /* none collected, none needed by the names */
    RFL_WARN_COUNT_
} rfl_reduce_warn;

/* Flags in rfl_kernel_stat.flags and rfl_reduce_result.flags. */
#define RFL_REDUCE_TENSOR_ESTIMATED 1u /* tensor FLOPs from instructions */
#define RFL_REDUCE_RATE_DERIVED 2u     /* a count came from rate x cycles */
#define RFL_REDUCE_SATURATED 4u        /* a uint64 count saturated */
#define RFL_REDUCE_NAME_TRUNCATED 8u   /* the name was cut */
#define RFL_REDUCE_TIME_FROM_CYCLES 16u /* time = cycles / clock */

/* One kernel (a profiled launch), a group of kernels with the same name, or
   a total. Exact integer counts and the same numbers as an rfl_work. */
typedef struct rfl_kernel_stat {
    uint64_t id;                  /* ncu "ID" (first id for groups) */
    uint64_t invocations;         /* launches counted */
    uint64_t flops[RFL_PREC_COUNT];  /* FLOPs (2 per multiply-add) */
    uint64_t bytes[RFL_LEVEL_COUNT]; /* bytes per memory level */
    uint64_t time_ns;             /* summed kernel time, ns */
    uint64_t tensor_inst;         /* tensor pipe warp instructions */
    unsigned flags;               /* RFL_REDUCE_* flags */
    rfl_work work;                /* same numbers, unknown bits set */
    char name[RFL_REDUCE_NAME_MAX]; /* NUL-terminated, maybe truncated */
} rfl_kernel_stat;

/* Called once per completed kernel (after filters), in file order. */
typedef void (*rfl_kernel_fn)(void *user, const rfl_kernel_stat *k);

typedef struct rfl_reduce_desc {
    rfl_locale locale;         /* AUTO (0) detects; US/EU declares */
    int top_n;                 /* kernels kept in result.top; 0 = 10,
                                  negative = none,
                                  capped at RFL_REDUCE_TOP_MAX */
    const char *filter;        /* keep kernels whose name contains this;
                                  NULL or "" = all. Matched on the kept
                                  (maybe truncated) name. */
    int use_ids;               /* nonzero: keep only id_first..id_last */
    uint64_t id_first, id_last;
    rfl_kernel_stat *groups;   /* by-name table (caller memory) or NULL */
    int group_cap;             /* entries in groups */
    const rfl_machine *machine; /* optional: roof and clock warnings */
    double tensor_flops_per_inst; /* FLOPs per tensor-pipe instruction
                                  for estimates; 0 = by each kernel's
                                  name (see the REDUCER manual) */
    rfl_kernel_fn on_kernel;   /* optional per-kernel callback */
    void *user;                /* passed to on_kernel */
} rfl_reduce_desc;

typedef struct rfl_reduce_warning {
    rfl_reduce_warn code;
    int has_kernel;            /* 1: kernel_id names the kernel */
    uint64_t kernel_id;
    char text[RFL_REDUCE_WARN_TEXT];
} rfl_reduce_warning;

typedef struct rfl_reduce_result {
    rfl_csv_format format;     /* the first section's format */
    rfl_locale locale;         /* declared or detected (AUTO: no evidence) */
    uint64_t kernels;          /* kernels counted after filters */
    uint64_t kernels_seen;     /* before filters */
    rfl_kernel_stat total;     /* totals (name "total") */
    double flops_per_s;        /* total FLOPs / time; 0 when unknown */
    /* The device's own ceilings when the profile carries them
       (*.peak_sustained x the matching clock, time-weighted over kernels);
       0 = not in the profile. */
    double ceil_flops[RFL_PREC_COUNT];
    double ceil_bw[RFL_LEVEL_COUNT];
    double sm_clock_hz;        /* time-weighted SM clock; 0 = unknown */
    double tensor_flops_per_inst; /* mean factor of the estimates, else 0 */
    double auto_units_rel_err; /* worst relative rounding of a scaled value */
    unsigned flags;            /* RFL_REDUCE_* flags */
    int top_count;             /* top kernels by time, longest first */
    rfl_kernel_stat top[RFL_REDUCE_TOP_MAX];
    int group_count;           /* entries filled in desc.groups */
    rfl_kernel_stat other;     /* kernels whose name found no group slot */
    int warning_count;
    int warnings_dropped;      /* beyond RFL_REDUCE_WARN_MAX */
    rfl_reduce_warning warnings[RFL_REDUCE_WARN_MAX];
} rfl_reduce_result;

/* A unit's scale into a metric's base unit (private to the reducer). */
typedef struct rfl__unit { int cls; uint64_t mult; int exp10; } rfl__unit;

/* Parser state: a plain struct (about 36 KB) so callers can place it
   anywhere; everything after err_msg is private. After a failure, err_line
   and err_col (1-based) and err_offset (0-based byte) say where. */
#define RFL__ROLES 80 /* metric roles the reducer knows (private) */
#define RFL__TC_MEMO 64 /* kernel-name answers remembered (private) */
#define RFL__NB 32 /* 64-byte blocks of masks made at a time (private) */
typedef struct rfl__blks {
    uint64_t sep[RFL__NB], ends[RFL__NB], hard[RFL__NB];
    uint64_t inside_carry, prev_cq, prev_ok;
} rfl__blks;
typedef struct rfl__tc_memo {
    uint64_t h, len, stamp;
    int used, cc, fam, elementwise;
    rfl_prec prec;
    double sync, wg;
} rfl__tc_memo;
typedef struct rfl_reduce_state {
    rfl_result err;            /* first error (sticky) */
    uint64_t err_line, err_col, err_offset;
    char err_msg[160];         /* what was wrong, for humans */
    /* ---- private ---- */
    rfl_reduce_desc desc;
    unsigned char *carry, *colmap, *runs;
    size_t carry_cap, col_cap;
    uint64_t offset, line, line_start, offset_now, field_line, field_col, field_off;
    uint64_t unit_line, unit_col, unit_off;
    int mode, fstate, quoted, need, row_kind, field_over, bom_state, saw_bytes;
    uint32_t col, ncols, carry_len;
    char pre[16];
    size_t pre_len;
    rfl_csv_format fmt;
    rfl_locale locale;
    int top_n, key_col[10];
    int roles_seen[RFL__ROLES];
    unsigned char role_ucls[RFL__ROLES], role_unit_set[RFL__ROLES], kset[RFL__ROLES];
    unsigned char role_plain[RFL__ROLES];
    uint64_t role_mult[RFL__ROLES];
    rfl__unit role_unit[RFL__ROLES], nv_time_unit;
    double kv_d[RFL__ROLES][2]; /* per-kernel values: US and EU readings */
    uint64_t kv_u[RFL__ROLES][2];
    unsigned kflags;
    int amb_pending;
    uint64_t amb_line, amb_col, amb_off;
    char amb_text[64], auto_example[64], unit[32];
    size_t unit_len, tmp_len, key_len, name_len;
    int unit_over, have_kernel, name_pending, row_skip, row_role, row_ucls, cc_major;
    int name_trunc, tmp_trunc, finished, simd;
    uint64_t row_mult, cur_id, cur_invoc, nv_index, rows;
    char name[RFL_REDUCE_NAME_MAX], tmp_name[RFL_REDUCE_NAME_MAX], key[128];
    rfl_kernel_stat kst;
    rfl__tc_memo tc_memo[RFL__TC_MEMO];
    rfl__blks blks;
    uint64_t tc_clock;
    rfl_reduce_result res;
    char scratch_text[RFL_REDUCE_WARN_TEXT];
    double clk_w, clk_sum, ceil_w[(int)RFL_PREC_COUNT + (int)RFL_LEVEL_COUNT],
        ceil_sum[(int)RFL_PREC_COUNT + (int)RFL_LEVEL_COUNT], w_above_x;
    uint64_t w_tc_kernels, w_est_kernels, w_pipe_kernels, w_pipe_inst;
    double w_tc_s, w_time_s, w_est_flops, w_est_inst;
    char w_tc_example[48];
    uint64_t w_below, w_below_id,
        w_below_got, w_below_need, w_above, w_above_id, w_trunc, w_other;
    unsigned w_partial;
    uint64_t nv_trace_ns, nv_sum_ns;
    int nv_trace_known, nv_sum_known;
} rfl_reduce_state;

/* Start a reduction.
   state   out: initialised (any previous content ignored)
   desc    in: options, copied (NULL = all defaults); the strings, groups
           table and machine it points to must outlive the reduction
   scratch in: caller memory of RFL_REDUCE_SCRATCH_SIZE(columns) bytes
   Returns RFL_ERR_ARG for NULL state/scratch, RFL_ERR_BUFFER when size is
   below RFL_REDUCE_SCRATCH_SIZE(1). See also rfl_reduce_push. */
RFL_API rfl_result rfl_reduce_init(rfl_reduce_state *state,
                                   const rfl_reduce_desc *desc,
                                   void *scratch, size_t size);

/* Feed len bytes (any split, len may be 0). Returns RFL_OK or the first
   error, which is sticky: state->err_line/err_col/err_offset/err_msg say
   where and what. See also rfl_reduce_finish. */
RFL_API rfl_result rfl_reduce_push(rfl_reduce_state *state,
                                   const void *bytes, size_t len);

/* End of input: completes the last row, computes totals, top kernels,
   groups, ceilings and warnings into *result (out). Errors: RFL_ERR_EMPTY
   (no bytes), RFL_ERR_NO_HEADER, RFL_ERR_NO_DATA (a header but no data
   row), RFL_ERR_TRUNCATED (input ends inside a quoted field), or the
   sticky error of a push. After finish, push returns
   RFL_ERR_STATE. */
RFL_API rfl_result rfl_reduce_finish(rfl_reduce_state *state,
                                     rfl_reduce_result *result);

/* Whole buffer at once: init + one push + finish. scratch as for init. */
RFL_API rfl_result rfl_reduce_buffer(const void *bytes, size_t len,
                                     const rfl_reduce_desc *desc,
                                     void *scratch, size_t size,
                                     rfl_reduce_state *state,
                                     rfl_reduce_result *result);

/* Tensor FLOPs summed over the tensor precisions of a stat (exact). */
RFL_API uint64_t rfl_kernel_tensor_flops(const rfl_kernel_stat *k);

/* A machine holding the profile's own ceilings (result.ceil_*), named
   "profile" (so rfl_work_attainable etc. can use it). */
RFL_API void rfl_reduce_ceilings_machine(const rfl_reduce_result *r,
                                         rfl_machine *out);

#ifdef __cplusplus
}
#endif
#endif /* RFL_REDUCE_API_H */
