"""workloads - every figure the benchmark measures, one module each, in the
order `bench/run.sh` runs them. A workload module has NAME, SUMMARY (one
line for --help), DEFAULT_ROUNDS and run(ctx) -> list of table.Table.
A new figure is a new module here and a line below; a new profiler to
compare with is a class in tools.py.
"""
from workloads import (cpu_overhead, heap_exact, heap_memory, heap_overhead, js_heap_read,
                       node_express, process_start, report_time, sample_rate, server_throughput,
                       trace_size)

WORKLOADS = {w.NAME: w for w in (cpu_overhead, sample_rate, trace_size, report_time,
                                 heap_overhead, heap_exact, heap_memory, server_throughput,
                                 process_start, node_express, js_heap_read)}
