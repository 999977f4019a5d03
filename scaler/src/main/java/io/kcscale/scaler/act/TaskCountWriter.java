package io.kcscale.scaler.act;

/**
 * Where a scale writes a connector's task count: Kafka Connect's REST API, or the resource an
 * operator reconciles into Connect. The scale's rules, checks, wait and answer are the same for all.
 */
public interface TaskCountWriter {

    /**
     * Sets the connector's task count to {@code tasks}, touching nothing else of it.
     *
     * @throws ScaleException saying why, when the count could not be written (the connector is then as it was)
     */
    void setTaskCount(String connector, int tasks);

    /** How {@link #setTaskCount} writes this connector, for the scale's plan. */
    String describe(String connector);
}
