"""The pieces of scripts/make-camera-roll: what the roll is made of (catalogue), what each file
will be (plan), and how it is written to disk (render, utility, clips)."""
