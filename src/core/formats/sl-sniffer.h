/* sl-sniffer.h: recognises file contents from their first few KiB
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-npy-header.h"

G_BEGIN_DECLS

/* How much of a file the sniffer looks at. Record files get a larger
 * window so the first records can be checked too. */
#define SL_SNIFFER_HEAD_SIZE     (8 * 1024)
#define SL_SNIFFER_RECORDS_SIZE  (16 * 1024)

typedef enum {
  SL_SNIFF_UNKNOWN,
  SL_SNIFF_EMPTY,
  SL_SNIFF_GZIP,        /* gzip whose content is none of the below */
  SL_SNIFF_JSON,        /* JSON object or array that is not a trace */
  SL_SNIFF_TRACE,       /* Chrome trace event JSON */
  SL_SNIFF_SQLITE,
  SL_SNIFF_NPY,
  SL_SNIFF_RECORDS,     /* TFRecord framing with a good first length CRC */
} SlSniffKind;

typedef enum {
  SL_JSON_ROOT_NONE,
  SL_JSON_ROOT_OBJECT,
  SL_JSON_ROOT_ARRAY,
} SlJsonRoot;

typedef struct _SlRecordScan SlRecordScan;

struct _SlRecordScan
{
  guint    n_records;            /* whole records with both CRCs good */
  guint    n_bad_payloads;       /* whole records whose payload CRC is bad */
  gint64   bad_payload_offsets[8];
  gint64   bad_header_offset;    /* record whose length CRC is bad, or -1 */
  guint    bad_header_index;
  gint64   partial_offset;       /* start of a trailing partial record, or -1 */
  gboolean complete;             /* the scan reached the end of the file */
  char    *version;              /* string field 3 of the first record */
  gboolean has_graph;            /* a record in the head starts with a graph_def
                                    (4) or meta_graph_def (9) field */
};

typedef struct _SlSniffResult SlSniffResult;

struct _SlSniffResult
{
  SlSniffKind   kind;
  gboolean      gzip;           /* the content was gzip-compressed */
  gboolean      complete;       /* the whole (decompressed) content was seen */

  /* Something wrong at the start, in plain words, or NULL */
  char         *error_message;
  gint64        error_offset;

  /* JSON and traces */
  SlJsonRoot    json_root;
  gboolean      json_too_deep;  /* nesting went past what the scanner follows */
  gboolean      trace_undecided;/* the head does not say whether it is a trace:
                                   sl_sniffer_skim_trace() reads on */
  gboolean      trace_out_of_budget; /* read on SL_TRACE_SKIMMER_BUDGET bytes
                                        without meeting a trace key */
  GPtrArray    *json_keys;      /* top-level keys of an object, in order */
  GHashTable   *json_values;    /* top-level key -> scalar value text */

  /* SQLite */
  guint         sqlite_page_size;
  GPtrArray    *sqlite_tables;  /* table names seen in the first pages */

  /* .npy */
  SlNpyHeader  *npy;

  /* TFRecord framing */
  SlRecordScan  records;
};

SlSniffResult *sl_sniffer_sniff_data       (const guint8   *data,
                                            gsize           len,
                                            guint64         file_size);
SlSniffResult *sl_sniffer_sniff_file       (GFile          *file,
                                            GCancellable   *cancellable,
                                            GError        **error);
void           sl_sniffer_skim_trace       (SlSniffResult  *result,
                                            GFile          *file,
                                            GCancellable   *cancellable);
GBytes        *sl_sniffer_read_head        (GFile          *file,
                                            gsize           max_size,
                                            GCancellable   *cancellable,
                                            GError        **error);
void           sl_sniffer_scan_records     (const guint8   *data,
                                            gsize           len,
                                            guint64         file_size,
                                            SlRecordScan   *scan);
gboolean       sl_sniffer_is_protobuf      (const guint8   *data,
                                            gsize           len,
                                            gboolean        complete);
const char    *sl_sniff_result_lookup_json (SlSniffResult  *self,
                                            const char     *key);
gboolean       sl_sniff_result_has_json_key (SlSniffResult *self,
                                            const char     *key);
void           sl_record_scan_clear        (SlRecordScan   *scan);
void           sl_sniff_result_free        (SlSniffResult  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlSniffResult, sl_sniff_result_free)

G_END_DECLS
