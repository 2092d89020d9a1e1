// `make bench`: prints medians and p99s; nothing here is asserted.
ProposalTableBench.run()
