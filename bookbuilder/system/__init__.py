"""What every stage uses to touch the machine: atomic writes (atomic), the one process pool
(parallel) and the one way to run another program (external)."""
