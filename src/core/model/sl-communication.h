/* sl-communication.h: what one rank sent over which link
 *
 * The collective and point-to-point operations of a profile with their
 * time split (elapse, transit, wait, synchronisation, idle) and, per
 * transport type (HCCS, RDMA, SDMA, PCIE, SIO, LOCAL), the bytes moved,
 * the time and the bandwidth with the sizes of the transfers; and the
 * links between ranks ("src-dst") each operation used. Filled by
 * sl-communication-reader from torch_npu / MindSpore communication.json
 * and communication_matrix.json, MindSpore's hccl_raw_<id>.csv and
 * msprof-analyze's cluster_communication*.json. Immutable once loaded.
 *
 * Sizes are MB (10^6 bytes), times ms, bandwidths GB/s as the profilers
 * write them; NAN where a value was missing or damaged.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/* Transfers of one size: "Size Distribution" {size_MB: [count, time_ms]}. */
typedef struct {
  double size_mb;
  double count;
  double time_ms;
} SlCommPackets;

typedef struct {
  char   *transport;
  double  size_mb;
  double  time_ms;
  double  bandwidth_gbps;
  double  large_packet_ratio;
  GArray *packets;              /* SlCommPackets */
} SlCommBandwidth;

typedef struct {
  char       *step;             /* "step50", "1", or "" without steps */
  char       *group;            /* "collective", "p2p", or a cluster's rank set */
  char       *name;
  gint64      rank_id;          /* -1: the rank whose file it is */
  double      start_us;
  double      elapse_ms;
  double      transit_ms;
  double      wait_ms;
  double      sync_ms;
  double      idle_ms;
  GPtrArray  *bandwidths;       /* SlCommBandwidth */
  const char *path;             /* owned by the SlCommunication */
  guint       line;             /* 1-based CSV line, 0 for JSON */
  gint64      offset;           /* byte offset of the op's key, -1 for CSV */
} SlCommOp;

typedef struct {
  char       *step;
  char       *group;
  char       *op;               /* the matrix's op key, "allreduce-total@..." */
  char       *op_name;          /* "Op Name", or NULL */
  char       *key;              /* "src-dst" as written */
  gint64      src;              /* -1 when the key has no rank numbers */
  gint64      dst;
  char       *transport;
  double      size_mb;
  double      time_ms;
  double      bandwidth_gbps;
  gboolean    cluster;          /* from a cluster-wide file: it belongs to rank @src */
  const char *path;
  guint       line;
  gint64      offset;
} SlCommLink;

#define SL_TYPE_COMMUNICATION (sl_communication_get_type ())
G_DECLARE_FINAL_TYPE (SlCommunication, sl_communication, SL, COMMUNICATION, GObject)

SlCommunication *sl_communication_new            (void);

/* Building (the reader). Returned records are owned by @self and stay
 * valid; numbers start as NAN. */
const char      *sl_communication_add_file       (SlCommunication  *self,
                                                  const char       *path);
SlCommOp        *sl_communication_add_op         (SlCommunication  *self,
                                                  const char       *path,
                                                  const char       *step,
                                                  const char       *group,
                                                  const char       *name);
SlCommBandwidth *sl_comm_op_add_bandwidth        (SlCommOp         *op,
                                                  const char       *transport);
void             sl_comm_bandwidth_add_packets   (SlCommBandwidth  *bandwidth,
                                                  double            size_mb,
                                                  double            count,
                                                  double            time_ms);
SlCommLink      *sl_communication_add_link       (SlCommunication  *self,
                                                  const char       *path,
                                                  const char       *step,
                                                  const char       *group,
                                                  const char       *op,
                                                  const char       *key);

/* Reading */
gboolean         sl_communication_is_empty       (SlCommunication  *self);
guint            sl_communication_get_n_ops      (SlCommunication  *self);
const SlCommOp  *sl_communication_get_op         (SlCommunication  *self,
                                                  guint             index);
guint            sl_communication_get_n_links    (SlCommunication  *self);
const SlCommLink *sl_communication_get_link      (SlCommunication  *self,
                                                  guint             index);
/* The files read, in order. */
GPtrArray       *sl_communication_get_files      (SlCommunication  *self);
/* Whether a record of a shared cluster-wide object is about @rank_id. */
gboolean         sl_comm_op_is_for_rank          (const SlCommOp   *op,
                                                  gint64            rank_id);
gboolean         sl_comm_link_is_for_rank        (const SlCommLink *link,
                                                  gint64            rank_id);
/* wait / (wait + transit) and synchronisation / (synchronisation +
 * transit), as the Ascend tools define their ratios: 0 when both are 0,
 * NAN when either is unknown. */
double           sl_comm_op_get_wait_ratio       (const SlCommOp   *op);
double           sl_comm_op_get_sync_ratio       (const SlCommOp   *op);
/* The op's name without the "@group hash" communication.json adds, as
 * the timeline names its slices; newly allocated. */
char            *sl_comm_op_dup_short_name       (const SlCommOp   *op);
/* An op or link key of msprof's aggregates: "Total Op Info", "...-total@...". */
gboolean         sl_communication_is_total_name  (const char       *name);

G_END_DECLS
