package io.kcscale.connectors.datagen;

import io.confluent.avro.random.generator.Generator;
import io.kcscale.vocabulary.Arrivals;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Random;
import java.util.stream.Collectors;
import org.apache.avro.Schema;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;

/**
 * The connector's configuration: kafka-connect-datagen's keys with their meaning, plus pacing and key
 * shaping of our own. Construction checks every rule, including those spanning several keys, and
 * throws a {@link ConfigException} naming the key, the bad value and what is allowed.
 */
public final class DatagenConfig extends AbstractConfig {

    public static final String KAFKA_TOPIC = "kafka.topic";
    public static final String QUICKSTART = "quickstart";
    public static final String SCHEMA_STRING = "schema.string";
    public static final String SCHEMA_KEYFIELD = "schema.keyfield";
    public static final String MAX_INTERVAL = "max.interval";
    public static final String ITERATIONS = "iterations";
    public static final String RANDOM_SEED = "random.seed";
    public static final String RATE_PER_TASK = "rate.per.task";
    public static final String ARRIVALS = "arrivals";
    public static final String BURST_RATE = "burst.rate";
    public static final String BURST_SECONDS = "burst.seconds";
    public static final String BURST_PERIOD_SECONDS = "burst.period.seconds";
    public static final String KEY_CARDINALITY = "key.cardinality";
    public static final String KEY_SKEW = "key.skew";

    private static final String DATA = "Data";
    private static final String PACING = "Pacing";
    private static final String KEYS = "Keys";

    public static final ConfigDef CONFIG_DEF = new ConfigDef()
            .define(
                    KAFKA_TOPIC,
                    Type.STRING,
                    ConfigDef.NO_DEFAULT_VALUE,
                    new ConfigDef.NonEmptyString(),
                    Importance.HIGH,
                    "Topic the records are written to.",
                    DATA,
                    1,
                    ConfigDef.Width.MEDIUM,
                    KAFKA_TOPIC)
            .define(
                    QUICKSTART,
                    Type.STRING,
                    "",
                    Importance.HIGH,
                    "Built-in schema to generate, one of " + Quickstarts.NAMES + " (case-insensitive). "
                            + "Exactly one of " + QUICKSTART + " and " + SCHEMA_STRING + " must be set.",
                    DATA,
                    2,
                    ConfigDef.Width.SHORT,
                    QUICKSTART)
            .define(
                    SCHEMA_STRING,
                    Type.STRING,
                    "",
                    Importance.HIGH,
                    "Inline Avro record schema whose fields may carry avro-random-generator 'arg.properties' "
                            + "(options, range, regex, ...). Exactly one of " + QUICKSTART + " and "
                            + SCHEMA_STRING + " must be set.",
                    DATA,
                    3,
                    ConfigDef.Width.LONG,
                    SCHEMA_STRING)
            .define(
                    SCHEMA_KEYFIELD,
                    Type.STRING,
                    "",
                    Importance.MEDIUM,
                    "Top-level field whose value, as a string, becomes the record key. Empty means the "
                            + "schema's first field, as in kafka-connect-datagen.",
                    DATA,
                    4,
                    ConfigDef.Width.SHORT,
                    SCHEMA_KEYFIELD)
            .define(
                    ITERATIONS,
                    Type.LONG,
                    -1L,
                    Importance.MEDIUM,
                    "Records each task produces in total, counted across restarts through the committed "
                            + "source offset; afterwards the task idles without failing. 0 or less (default -1) "
                            + "means no limit.",
                    DATA,
                    5,
                    ConfigDef.Width.SHORT,
                    ITERATIONS)
            .define(
                    RANDOM_SEED,
                    Type.LONG,
                    null,
                    Importance.LOW,
                    "Seed making the generated data repeatable; task k uses seed + k, so tasks differ. "
                            + "Unset means a fresh random seed per start.",
                    DATA,
                    6,
                    ConfigDef.Width.SHORT,
                    RANDOM_SEED)
            .define(
                    MAX_INTERVAL,
                    Type.LONG,
                    500L,
                    ConfigDef.Range.atLeast(0),
                    Importance.MEDIUM,
                    "Without " + RATE_PER_TASK + ": each record waits a random time between 0 and this many "
                            + "milliseconds, as in kafka-connect-datagen; 0 produces as fast as possible. "
                            + "Ignored when " + RATE_PER_TASK + " is set.",
                    PACING,
                    1,
                    ConfigDef.Width.SHORT,
                    MAX_INTERVAL)
            .define(
                    RATE_PER_TASK,
                    Type.DOUBLE,
                    null,
                    optionalPositive(),
                    Importance.HIGH,
                    "Records per second per task; replaces " + MAX_INTERVAL + ". Records are due on a fixed "
                            + "schedule from the task's start, so the rate does not drift and a task that fell "
                            + "behind catches up. Unset by default.",
                    PACING,
                    2,
                    ConfigDef.Width.SHORT,
                    RATE_PER_TASK)
            .define(
                    ARRIVALS,
                    Type.STRING,
                    Arrivals.STEADY.configName(),
                    ConfigDef.ValidString.in(Arrivals.configNames().toArray(new String[0])),
                    Importance.MEDIUM,
                    "How records arrive at " + RATE_PER_TASK + ": 'steady' evenly spaced; 'poisson' "
                            + "exponential gaps with mean 1/" + RATE_PER_TASK + "; 'bursts' a square wave of "
                            + BURST_RATE + " records/s for " + BURST_SECONDS + " out of every "
                            + BURST_PERIOD_SECONDS + ", " + RATE_PER_TASK + " the rest of the time. "
                            + "'poisson' and 'bursts' need " + RATE_PER_TASK + ".",
                    PACING,
                    3,
                    ConfigDef.Width.SHORT,
                    ARRIVALS)
            .define(
                    BURST_RATE,
                    Type.DOUBLE,
                    null,
                    optionalPositive(),
                    Importance.MEDIUM,
                    "Records per second per task during a burst; required with arrivals=bursts.",
                    PACING,
                    4,
                    ConfigDef.Width.SHORT,
                    BURST_RATE)
            .define(
                    BURST_SECONDS,
                    Type.DOUBLE,
                    1.0,
                    optionalPositive(),
                    Importance.MEDIUM,
                    "Length of each burst in seconds, at the start of each period; less than " + BURST_PERIOD_SECONDS
                            + ".",
                    PACING,
                    5,
                    ConfigDef.Width.SHORT,
                    BURST_SECONDS)
            .define(
                    BURST_PERIOD_SECONDS,
                    Type.DOUBLE,
                    10.0,
                    optionalPositive(),
                    Importance.MEDIUM,
                    "Seconds from the start of one burst to the start of the next.",
                    PACING,
                    6,
                    ConfigDef.Width.SHORT,
                    BURST_PERIOD_SECONDS)
            .define(
                    KEY_CARDINALITY,
                    Type.INT,
                    null,
                    optionalAtLeast(1),
                    Importance.MEDIUM,
                    "Caps the distinct keys at K, across all tasks. The key field's value is hashed "
                            + "(murmur2) into one of K buckets and the key becomes '<field>-<bucket>', bucket "
                            + "0..K-1, e.g. 'symbol-3'. Fewer than K keys appear if the field has fewer values. "
                            + "Unset means the field's value itself is the key.",
                    KEYS,
                    1,
                    ConfigDef.Width.SHORT,
                    KEY_CARDINALITY)
            .define(
                    KEY_SKEW,
                    Type.DOUBLE,
                    0.0,
                    ConfigDef.Range.atLeast(0.0),
                    Importance.MEDIUM,
                    "Zipf exponent for key popularity; 0 (default) leaves keys as the data makes them. "
                            + "Above 0 the key is drawn, independently of the record, as '<field>-<rank-1>' "
                            + "with the rank Zipf-distributed over the " + KEY_CARDINALITY + " keys, so "
                            + "'<field>-0' is the hottest. Needs " + KEY_CARDINALITY + ".",
                    KEYS,
                    2,
                    ConfigDef.Width.SHORT,
                    KEY_SKEW);

    private final Schema valueSchema;
    private final String keyField;

    public DatagenConfig(Map<String, String> props) {
        super(CONFIG_DEF, props);
        valueSchema = resolveSchema();
        keyField = resolveKeyField();
        checkPacing();
        checkKeys();
    }

    public String topic() {
        return getString(KAFKA_TOPIC);
    }

    /** The Avro schema to generate, checked to be a non-empty record that Connect can carry. */
    public Schema valueSchema() {
        return valueSchema;
    }

    /** The field whose value makes the key: {@code schema.keyfield}, or the schema's first field. */
    public String keyField() {
        return keyField;
    }

    public long maxIntervalMs() {
        return getLong(MAX_INTERVAL);
    }

    /** Records per task in total; {@link Long#MAX_VALUE} when {@code iterations} is 0 or less. */
    public long iterationLimit() {
        long iterations = getLong(ITERATIONS);
        return iterations > 0 ? iterations : Long.MAX_VALUE;
    }

    public OptionalLong randomSeed() {
        Long seed = getLong(RANDOM_SEED);
        return seed == null ? OptionalLong.empty() : OptionalLong.of(seed);
    }

    public OptionalDouble ratePerTask() {
        Double rate = getDouble(RATE_PER_TASK);
        return rate == null ? OptionalDouble.empty() : OptionalDouble.of(rate);
    }

    public Arrivals arrivals() {
        return Arrivals.fromConfig(getString(ARRIVALS));
    }

    /** Only meaningful with arrivals=bursts, where it is checked to be set. */
    public double burstRate() {
        return getDouble(BURST_RATE);
    }

    public double burstSeconds() {
        return getDouble(BURST_SECONDS);
    }

    public double burstPeriodSeconds() {
        return getDouble(BURST_PERIOD_SECONDS);
    }

    public OptionalInt keyCardinality() {
        Integer cardinality = getInt(KEY_CARDINALITY);
        return cardinality == null ? OptionalInt.empty() : OptionalInt.of(cardinality);
    }

    public double keySkew() {
        return getDouble(KEY_SKEW);
    }

    private Schema resolveSchema() {
        String quickstart = getString(QUICKSTART).trim();
        String schemaString = getString(SCHEMA_STRING).trim();
        if (!quickstart.isEmpty() && !schemaString.isEmpty()) {
            throw new InvalidConfigException(
                    QUICKSTART,
                    quickstart,
                    "set exactly one of " + QUICKSTART + " and " + SCHEMA_STRING + ", not both");
        }
        if (quickstart.isEmpty() && schemaString.isEmpty()) {
            throw new InvalidConfigException(
                    QUICKSTART,
                    "",
                    "set exactly one of " + QUICKSTART + " (one of " + Quickstarts.NAMES + ") and " + SCHEMA_STRING
                            + " (an Avro schema)");
        }
        if (!quickstart.isEmpty()) {
            String text = Quickstarts.schemaText(quickstart)
                    .orElseThrow(() -> new InvalidConfigException(
                            QUICKSTART, quickstart, "known quickstarts are " + Quickstarts.NAMES));
            return usableSchema(QUICKSTART, quickstart, text);
        }
        return usableSchema(SCHEMA_STRING, schemaString, schemaString);
    }

    /** Parses the schema and proves, before any task starts, that it can be generated and converted. */
    private static Schema usableSchema(String key, String value, String text) {
        Schema schema;
        try {
            schema = new Schema.Parser().parse(text);
            AvroToConnect.structBuilder(schema);
        } catch (RuntimeException e) {
            throw new InvalidConfigException(
                    key, value, "need an Avro record schema Connect can carry: " + e.getMessage());
        }
        if (schema.getFields().isEmpty()) {
            throw new InvalidConfigException(key, value, "the record needs at least one field");
        }
        if (schema.getField(ValueFactory.PRODUCED_AT_FIELD) != null) {
            throw new InvalidConfigException(
                    key,
                    value,
                    "field name " + ValueFactory.PRODUCED_AT_FIELD
                            + " is reserved for the production time the connector appends");
        }
        try {
            new Generator.Builder().schema(schema).random(new Random(0)).build().generate();
        } catch (RuntimeException e) {
            throw new InvalidConfigException(
                    key, value, "avro-random-generator rejects its arg.properties: " + e.getMessage());
        }
        return schema;
    }

    private String resolveKeyField() {
        String configured = getString(SCHEMA_KEYFIELD).trim();
        if (configured.isEmpty()) {
            return valueSchema.getFields().get(0).name();
        }
        if (valueSchema.getField(configured) == null) {
            List<String> fields =
                    valueSchema.getFields().stream().map(Schema.Field::name).collect(Collectors.toList());
            throw new InvalidConfigException(
                    SCHEMA_KEYFIELD, configured, "not a top-level field of the schema; its fields are " + fields);
        }
        return configured;
    }

    private void checkPacing() {
        Arrivals arrivals = arrivals();
        if (arrivals != Arrivals.STEADY && ratePerTask().isEmpty()) {
            throw new InvalidConfigException(
                    RATE_PER_TASK,
                    null,
                    "arrivals=" + arrivals.configName() + " needs " + RATE_PER_TASK + ", a number > 0");
        }
        if (arrivals == Arrivals.BURSTS) {
            if (getDouble(BURST_RATE) == null) {
                throw new InvalidConfigException(
                        BURST_RATE, null, "arrivals=bursts needs " + BURST_RATE + ", a number > 0");
            }
            if (burstSeconds() >= burstPeriodSeconds()) {
                throw new InvalidConfigException(
                        BURST_SECONDS,
                        burstSeconds(),
                        "must be less than " + BURST_PERIOD_SECONDS + " (" + burstPeriodSeconds() + ")");
            }
        }
    }

    private void checkKeys() {
        if (keySkew() > 0 && keyCardinality().isEmpty()) {
            throw new InvalidConfigException(
                    KEY_SKEW,
                    keySkew(),
                    "a skew > 0 needs " + KEY_CARDINALITY + ", the number of keys to skew over; use 0 or set "
                            + KEY_CARDINALITY);
        }
    }

    /** Like {@link ConfigDef.Range}, but an unset (null) value passes. */
    private static ConfigDef.Validator optionalPositive() {
        return ConfigDef.LambdaValidator.with(
                (name, value) -> {
                    if (value != null) {
                        double number = ((Number) value).doubleValue();
                        if (!(number > 0) || Double.isInfinite(number)) {
                            throw new ConfigException(name, value, "must be a finite number > 0");
                        }
                    }
                },
                () -> "a finite number > 0, or unset");
    }

    private static ConfigDef.Validator optionalAtLeast(int min) {
        return ConfigDef.LambdaValidator.with(
                (name, value) -> {
                    if (value != null && ((Number) value).intValue() < min) {
                        throw new ConfigException(name, value, "must be at least " + min);
                    }
                },
                () -> "an integer >= " + min + ", or unset");
    }
}
