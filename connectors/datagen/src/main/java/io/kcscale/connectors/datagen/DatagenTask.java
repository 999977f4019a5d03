package io.kcscale.connectors.datagen;

import io.confluent.avro.random.generator.Generator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Generates random records at the configured pace. The source offset counts the records produced so
 * far, so a restarted task resumes the count and {@code iterations} caps the total, not each run.
 */
public class DatagenTask extends SourceTask {

    /** Set by {@link DatagenConnector#taskConfigs}: this task's number, 0-based. */
    static final String TASK_ID = "task.id";

    private static final Logger log = LoggerFactory.getLogger(DatagenTask.class);

    private final PacerClock clock;
    private volatile Pacer pacer;
    private Generator generator;
    private RecordFactory records;
    private long produced;
    private long limit;

    public DatagenTask() {
        this(PacerClock.SYSTEM);
    }

    DatagenTask(PacerClock clock) {
        this.clock = clock;
    }

    @Override
    public String version() {
        return Version.current();
    }

    @Override
    public void start(Map<String, String> props) {
        DatagenConfig config = new DatagenConfig(props);
        int taskId = Integer.parseInt(props.getOrDefault(TASK_ID, "0"));
        produced = committedCount(taskId);
        limit = config.iterationLimit();
        // one seeded stream per task, split into independent streams for data, keys and timing
        Random seeds =
                config.randomSeed().isPresent() ? new Random(config.randomSeed().getAsLong() + taskId) : new Random();
        generator = new Generator.Builder()
                .schema(config.valueSchema())
                .random(new Random(seeds.nextLong()))
                // continues avro-random-generator's 'iteration' properties where the last run stopped
                .generation(produced)
                .build();
        records = new RecordFactory(
                config.topic(),
                taskId,
                KeyChooser.forConfig(config, seeds.nextLong()),
                new ValueFactory(config.valueSchema()));
        pacer = new Pacer(ArrivalSchedule.forConfig(config, new Random(seeds.nextLong())), clock);
        log.info(
                "datagen task {} producing to {} from record {} (limit {})",
                taskId,
                config.topic(),
                produced,
                limit == Long.MAX_VALUE ? "none" : limit);
    }

    @Override
    public List<SourceRecord> poll() throws InterruptedException {
        long remaining = limit - produced;
        if (remaining <= 0) {
            // iterations reached: stay quiet rather than fail, as the worker keeps polling
            pacer.idle();
            return null;
        }
        int due = pacer.awaitDue((int) Math.min(remaining, Integer.MAX_VALUE));
        if (due == 0) {
            return null;
        }
        List<SourceRecord> batch = new ArrayList<>(due);
        for (int i = 0; i < due; i++) {
            produced++;
            batch.add(records.create((GenericRecord) generator.generate(), produced, System.currentTimeMillis()));
        }
        return batch;
    }

    @Override
    public void stop() {
        Pacer current = pacer;
        if (current != null) {
            current.stop();
        }
    }

    private long committedCount(int taskId) {
        Map<String, Object> offset = context.offsetStorageReader().offset(RecordFactory.sourcePartition(taskId));
        Object count = offset == null ? null : offset.get(RecordFactory.OFFSET_PRODUCED);
        return count instanceof Number ? ((Number) count).longValue() : 0L;
    }
}
