package dev.sluice.quality;

/** Where a gate sits in a medallion job. */
public enum Boundary {
    /** After Bronze: the landed partition as read. */
    SOURCE,
    /** After Silver: typed, deduplicated rows. */
    TRANSFORM,
    /** After Gold: the published marts. */
    SINK
}
