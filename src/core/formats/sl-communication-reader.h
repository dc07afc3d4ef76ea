/* sl-communication-reader.h: communication data of Ascend profilers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-communication.h"

G_BEGIN_DECLS

/* Larger than any communication file of a real run (a few MB per rank
 * and step); a bigger file is refused rather than read into memory. */
#define SL_COMMUNICATION_READER_MAX_SIZE (256 * 1024 * 1024)

typedef enum {
  SL_COMM_FORMAT_NONE,
  SL_COMM_FORMAT_OPS,              /* communication.json: {step: {p2p|collective: {op: ...}}} */
  SL_COMM_FORMAT_MATRIX,           /* communication_matrix.json: {step: {p2p|collective: {op: {src-dst: ...}}}} */
  SL_COMM_FORMAT_CLUSTER_OPS,      /* cluster_communication.json: {group: {step: {op: {rank: ...}}}} */
  SL_COMM_FORMAT_CLUSTER_MATRIX,   /* cluster_communication_matrix.json: {group: {step: {op: {src-dst: ...}}}} */
  SL_COMM_FORMAT_HCCL_RAW,         /* MindSpore hccl_raw_<id>.csv */
} SlCommFormat;

/* By the file's base name. */
SlCommFormat sl_communication_format_for_path (const char       *path);

/* Reads @data as @format into @comm, keeping whatever came before any
 * damage; each damaged place becomes an SlProblem in @problems. Returns
 * FALSE when nothing could be read. */
gboolean     sl_communication_read_data       (SlCommunication  *comm,
                                               const char       *path,
                                               SlCommFormat      format,
                                               const char       *data,
                                               gsize             length,
                                               GPtrArray        *problems);
gboolean     sl_communication_read_file       (SlCommunication  *comm,
                                               const char       *path,
                                               GCancellable     *cancellable,
                                               GPtrArray        *problems);

G_END_DECLS
