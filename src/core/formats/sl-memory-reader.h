/* sl-memory-reader.h: the memory files of the Ascend profilers
 *
 * torch_npu and MindSpore write them into ASCEND_PROFILER_OUTPUT:
 * memory_record.csv (Component, Timestamp(us), Total Allocated(MB),
 * Total Reserved(MB), Total Active(MB), Stream Ptr, Device Type),
 * operator_memory.csv (Name, Size(KB), Allocation Time(us), Release
 * Time(us), Duration(us), Allocation/Release Total Allocated and
 * Reserved(MB), Stream Ptr, Device Type) and npu_module_mem.csv
 * (Component, Timestamp(us), Total Reserved(MB), Device); their SQLite
 * export holds the same as MEMORY_RECORD, OP_MEMORY and NPU_MODULE_MEM
 * in bytes and nanoseconds.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-memory-profile.h"

G_BEGIN_DECLS

typedef enum {
  SL_MEMORY_FILE_NONE,
  SL_MEMORY_FILE_RECORD,
  SL_MEMORY_FILE_OPERATORS,
  SL_MEMORY_FILE_MODULES,
} SlMemoryFile;

/* By the file's base name. */
SlMemoryFile sl_memory_reader_file_for_path (const char      *path);

/* Reads @data, a @kind CSV, into @memory; damaged rows are skipped and
 * each becomes an SlProblem in @problems with its line. Returns FALSE
 * when nothing could be read (no header, or a needed column missing). */
gboolean     sl_memory_reader_read_data     (SlMemoryProfile *memory,
                                             const char      *path,
                                             SlMemoryFile     kind,
                                             const char      *data,
                                             gsize            length,
                                             GCancellable    *cancellable,
                                             GPtrArray       *problems);
gboolean     sl_memory_reader_read_file     (SlMemoryProfile *memory,
                                             const char      *path,
                                             GCancellable    *cancellable,
                                             GPtrArray       *problems);
/* The memory tables of a SQLite export; FALSE when it has none. */
gboolean     sl_memory_reader_read_db       (SlMemoryProfile *memory,
                                             const char      *path,
                                             GCancellable    *cancellable,
                                             GPtrArray       *problems);

G_END_DECLS
