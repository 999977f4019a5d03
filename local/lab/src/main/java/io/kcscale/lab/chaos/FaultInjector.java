package io.kcscale.lab.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kcscale.local.LocalStack;
import io.kcscale.local.StackOptions;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Does one scheduled fault to the running stack and returns once the fault is done and the component
 * it hit is back (started again and ready), not once the pipeline has recovered: that is measured apart.
 * Remembers where the malformed records landed.
 */
final class FaultInjector implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final LocalStack stack;
    private final ScalerScale scaler;
    private final MalformedProducer producer;
    private final Set<OffsetLedger.Coordinates> malformed = new HashSet<>();

    FaultInjector(LocalStack stack) {
        this.stack = stack;
        this.scaler = new ScalerScale(stack.endpoints().scalerUrl());
        this.producer = new MalformedProducer(stack.endpoints().kafkaBootstrap(), StackOptions.TOPIC);
    }

    /** @return what was done, in a few words, for the report */
    String inject(ScheduledFault f) {
        return switch (f.fault()) {
            case WORKER_KILL, ELASTICSEARCH_KILL -> {
                long pid = stack.component(f.target()).pid();
                stack.component(f.target()).kill();
                stack.restart(f.target());
                yield "killed pid " + pid + ", started again";
            }
            case BROKER_RESTART -> {
                stack.restart(f.target());
                yield "stopped and started again";
            }
            case SCALE_TO_3 -> scale(3);
            case SCALE_TO_2 -> scale(2);
            case MALFORMED -> {
                List<OffsetLedger.Coordinates> landed = producer.send(f.partitions());
                malformed.addAll(landed);
                yield "at " + landed;
            }
        };
    }

    private String scale(int tasks) {
        JsonNode answer = read(scaler.scale(StackOptions.SINK_CONNECTOR, tasks));
        return answer.path("before").asText() + " -> " + answer.path("after").asText() + " tasks, pause "
                + answer.path("rebalancePauseSeconds").asText() + " s";
    }

    /** Where the malformed records produced so far landed. */
    Set<OffsetLedger.Coordinates> malformed() {
        return Set.copyOf(malformed);
    }

    private static JsonNode read(String json) {
        try {
            return JSON.readTree(json);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("the scaler's answer is not JSON: " + json, e);
        }
    }

    @Override
    public void close() {
        producer.close();
    }
}
