package io.kcscale.lab.chaos;

/** What the chaos benchmark does to the pipeline, one kind per fault it schedules. */
public enum Fault {
    /** SIGKILL of a Connect worker, then a start of it again. */
    WORKER_KILL("kill -9 of a worker, then restart"),
    /** SIGKILL of Elasticsearch, then a start again: acknowledged writes must survive it. */
    ELASTICSEARCH_KILL("kill -9 of elasticsearch, then restart"),
    /** A graceful stop and start of the only broker: every client reconnects. */
    BROKER_RESTART("broker restart"),
    /** The sink from 1 to 3 tasks through the scaler's API. */
    SCALE_TO_3("scale to 3 tasks through the scaler"),
    /** The sink from 3 to 2 tasks through the scaler's API. */
    SCALE_TO_2("scale to 2 tasks through the scaler"),
    /** Records whose value no sink may index, all carrying headers that would steer a trusting sink, and one valid document with them. */
    MALFORMED("hostile records: malformed values and steering headers");

    private final String description;

    Fault(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }
}
