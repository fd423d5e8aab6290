"""Metal vs. Non-Metal (`metal-vs-nonmetal`)."""
