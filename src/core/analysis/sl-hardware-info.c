/* sl-hardware-info.c
 *
 * The loader flattens info files into "a.b.0.c" keys and the SQLite
 * reader writes its tables as "TABLE.column"; this file reads both
 * shapes. Version keys differ between releases (cann_version,
 * CANN_VERSION, drvVersion...), so they are matched on the last part of
 * the key, case folded. Numbers that are not whole, non-negative numbers
 * are left unknown rather than trusted.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "sl-hardware-info.h"

/* More devices than one host holds; DeviceInfo.N past it is ignored. */
#define MAX_DEVICES 64

static const char *
lookup (const SlProfileRank *rank,
        const char          *key)
{
  const char *value = g_hash_table_lookup (rank->info, key);

  return value != NULL && value[0] != '\0' ? value : NULL;
}

static const char *
lookup_first (const SlProfileRank *rank,
              const char * const  *keys)
{
  for (guint i = 0; keys[i] != NULL; i++)
    {
      const char *value = lookup (rank, keys[i]);

      if (value != NULL)
        return value;
    }
  return NULL;
}

static gint64
parse_count (const char *text)
{
  guint64 value;

  if (text == NULL || !g_ascii_string_to_unsigned (text, 10, 0, G_MAXINT64, &value, NULL))
    return -1;
  return (gint64)value;
}

static gint64
lookup_count (const SlProfileRank *rank,
              const char          *key)
{
  return parse_count (lookup (rank, key));
}

/* The value of the first key, in file order, whose last part is one of
 * @names (case folded). */
static const char *
lookup_by_last_part (const SlProfileRank *rank,
                     const char * const  *names)
{
  for (guint n = 0; names[n] != NULL; n++)
    for (guint i = 0; i < rank->info_keys->len; i++)
      {
        const char *key = g_ptr_array_index (rank->info_keys, i);
        const char *dot = strrchr (key, '.');
        const char *last = dot != NULL ? dot + 1 : key;

        if (g_ascii_strcasecmp (last, names[n]) == 0 && lookup (rank, key) != NULL)
          return lookup (rank, key);
      }
  return NULL;
}

static void
replace_text (char      **field,
              const char *value)
{
  g_free (*field);
  *field = g_strdup (value);
}

static void
device_free (SlHardwareDevice *device)
{
  g_free (device->chip);
  g_free (device->ctrl_cpu_type);
  g_free (device);
}

static SlHardwareDevice *
find_device (SlHardwareInfo *info,
             gint64          id)
{
  SlHardwareDevice *device;

  for (guint i = 0; i < info->devices->len; i++)
    {
      device = g_ptr_array_index (info->devices, i);
      if (device->id == id)
        return device;
    }

  device = g_new0 (SlHardwareDevice, 1);
  device->id = id;
  device->ai_core_num = device->ai_cpu_num = device->aiv_num = -1;
  device->ctrl_cpu_num = device->ts_cpu_num = device->aic_frequency_mhz = -1;
  g_ptr_array_add (info->devices, device);
  return device;
}

/* msprof's DeviceInfo[]: one entry per device profiled. */
static void
read_device_info (SlHardwareInfo      *info,
                  const SlProfileRank *rank)
{
  for (guint i = 0; i < MAX_DEVICES; i++)
    {
      g_autofree char *prefix = g_strdup_printf ("DeviceInfo.%u.", i);
      g_autofree char *id_key = g_strconcat (prefix, "id", NULL);
      g_autofree char *ai_core = g_strconcat (prefix, "ai_core_num", NULL);
      g_autofree char *ai_cpu = g_strconcat (prefix, "ai_cpu_core_num", NULL);
      g_autofree char *aiv = g_strconcat (prefix, "aiv_num", NULL);
      g_autofree char *ctrl = g_strconcat (prefix, "ctrl_cpu_core_num", NULL);
      g_autofree char *ctrl_type = g_strconcat (prefix, "ctrl_cpu_id", NULL);
      g_autofree char *ts = g_strconcat (prefix, "ts_cpu_core_num", NULL);
      g_autofree char *freq = g_strconcat (prefix, "aic_frequency", NULL);
      SlHardwareDevice *device;
      gint64 id;

      if (lookup (rank, id_key) == NULL && lookup (rank, ai_core) == NULL)
        break;
      id = lookup_count (rank, id_key);
      device = find_device (info, id >= 0 ? id : (gint64)i);
      device->ai_core_num = lookup_count (rank, ai_core);
      device->ai_cpu_num = lookup_count (rank, ai_cpu);
      device->aiv_num = lookup_count (rank, aiv);
      device->ctrl_cpu_num = lookup_count (rank, ctrl);
      replace_text (&device->ctrl_cpu_type, lookup (rank, ctrl_type));
      device->ts_cpu_num = lookup_count (rank, ts);
      device->aic_frequency_mhz = lookup_count (rank, freq);
    }
}

/* The SQLite export's NPU_INFO: "NPU_INFO.<id>" = chip name. */
static void
read_npu_info (SlHardwareInfo      *info,
               const SlProfileRank *rank)
{
  for (guint i = 0; i < rank->info_keys->len; i++)
    {
      const char *key = g_ptr_array_index (rank->info_keys, i);
      gint64 id;

      if (!g_str_has_prefix (key, "NPU_INFO.") || (id = parse_count (key + strlen ("NPU_INFO."))) < 0)
        continue;
      replace_text (&find_device (info, id)->chip, lookup (rank, key));
    }
}

static char *
describe_cpu (const SlProfileRank *rank)
{
  const char *name = lookup (rank, "CPU.0.Name");
  const char *type = lookup (rank, "CPU.0.Type");

  if (name != NULL && type != NULL)
    return g_strdup_printf ("%s %s", name, type);
  return g_strdup (name != NULL ? name : type);
}

/* cpuNums counts the logical CPUs; CPU[] may list only some of them. */
static gint64
count_logical_cores (const SlProfileRank *rank)
{
  gint64 total = lookup_count (rank, "cpuNums");

  if (total >= 0)
    return total;
  for (guint i = 0; i < MAX_DEVICES * 8; i++)
    {
      g_autofree char *key = g_strdup_printf ("CPU.%u.Logical_CPU_Count", i);
      gint64 n = lookup_count (rank, key);

      if (n < 0)
        break;
      total = MAX (total, 0) + n;
    }
  return total;
}

static char *
describe_framework (const SlProfileRank *rank)
{
  static const char * const torch_npu[] = { "torch_npu_version", "torch_npu", NULL };
  static const char * const mindspore[] = { "ms_version", "mindspore_version", NULL };
  const char *version;

  if ((version = lookup_by_last_part (rank, torch_npu)) != NULL)
    return g_strdup_printf ("torch_npu %s", version);
  if ((version = lookup_by_last_part (rank, mindspore)) != NULL)
    return g_strdup_printf ("MindSpore %s", version);
  return NULL;
}

static int
compare_devices (gconstpointer a,
                 gconstpointer b)
{
  const SlHardwareDevice *da = *(SlHardwareDevice **)a, *db = *(SlHardwareDevice **)b;

  return da->id < db->id ? -1 : da->id > db->id;
}

/**
 * sl_hardware_info_new_for_rank:
 *
 * Returns: (transfer full): what @rank's info files say of its host,
 *   devices and software versions
 */
SlHardwareInfo *
sl_hardware_info_new_for_rank (const SlProfileRank *rank)
{
  static const char * const host_names[] = { "hostname", "HOST_INFO.hostName", "host_name", "hostName", NULL };
  static const char * const os_names[] = { "OS", "os", NULL };
  static const char * const cann[] = { "cann_version", "CANN_VERSION", "cann", NULL };
  static const char * const driver[] = { "driver_version", "drvVersion", "driver", NULL };
  SlHardwareInfo *info;
  gint64 memory_kb;

  g_return_val_if_fail (rank != NULL, NULL);

  info = g_new0 (SlHardwareInfo, 1);
  info->devices = g_ptr_array_new_with_free_func ((GDestroyNotify)device_free);
  info->host_name = g_strdup (lookup_first (rank, host_names));
  info->os = g_strdup (lookup_first (rank, os_names));
  info->cpu = describe_cpu (rank);
  info->logical_cores = count_logical_cores (rank);
  /* memoryTotal is /proc/meminfo's MemTotal, in kB. */
  memory_kb = lookup_count (rank, "memoryTotal");
  info->memory_bytes = memory_kb >= 0 && memory_kb <= G_MAXINT64 / 1024 ? memory_kb * 1024 : -1;
  info->cann_version = g_strdup (lookup_by_last_part (rank, cann));
  info->driver_version = g_strdup (lookup_by_last_part (rank, driver));
  info->framework = describe_framework (rank);

  read_device_info (info, rank);
  read_npu_info (info, rank);
  g_ptr_array_sort (info->devices, compare_devices);
  return info;
}

void
sl_hardware_info_free (SlHardwareInfo *info)
{
  if (info == NULL)
    return;
  g_free (info->host_name);
  g_free (info->os);
  g_free (info->cpu);
  g_free (info->cann_version);
  g_free (info->driver_version);
  g_free (info->framework);
  g_ptr_array_unref (info->devices);
  g_free (info);
}

gboolean
sl_hardware_info_is_empty (const SlHardwareInfo *info)
{
  g_return_val_if_fail (info != NULL, TRUE);
  return info->host_name == NULL && info->os == NULL && info->cpu == NULL && info->logical_cores < 0 &&
         info->memory_bytes < 0 && info->cann_version == NULL && info->driver_version == NULL &&
         info->framework == NULL && info->devices->len == 0;
}

const char *
sl_hardware_info_needed_files (void)
{
  return _("info.json.<N> in device_<N> of an msprof PROF_ folder, profiler_info_<N>.json or "
           "profiler_metadata.json of a torch_npu or MindSpore profile, or the HOST_INFO and NPU_INFO "
           "tables of a SQLite export");
}
