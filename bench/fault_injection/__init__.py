"""bench/faults.py's code: fault injection of shoebox (SIGKILL while it writes) and the checks
that no photo, id or record was lost. bench/faults.py's docstring describes both scenarios."""
