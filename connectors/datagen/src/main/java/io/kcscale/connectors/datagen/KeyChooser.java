package io.kcscale.connectors.datagen;

import java.nio.charset.StandardCharsets;
import org.apache.avro.generic.GenericRecord;
import org.apache.commons.math3.distribution.ZipfDistribution;
import org.apache.commons.math3.random.Well19937c;
import org.apache.kafka.common.utils.Utils;

/** Picks the key of each generated record (config keys schema.keyfield, key.cardinality, key.skew). */
interface KeyChooser {

    /** The key for this record; null only when the key field itself is null and keys are not capped. */
    String key(GenericRecord record);

    /**
     * The chooser the configuration asks for; {@code seed} drives the Zipf draws.
     * <ul>
     * <li>no key.cardinality: the key field's value as a string, as kafka-connect-datagen makes it;
     * <li>key.cardinality K: the value hashed into one of K buckets, key {@code <field>-<bucket>}. The
     * bucket depends on the value alone, so every task and every restart agree and the cap holds for
     * the whole connector, not just per task;
     * <li>key.skew s &gt; 0 as well: the rank drawn from Zipf(K, s) independently of the record, key
     * {@code <field>-<rank - 1>}, so {@code <field>-0} is the hottest key with share 1/H(K, s).
     * </ul>
     */
    static KeyChooser forConfig(DatagenConfig config, long seed) {
        String field = config.keyField();
        if (config.keyCardinality().isEmpty()) {
            return record -> naturalKey(record, field);
        }
        int cardinality = config.keyCardinality().getAsInt();
        if (config.keySkew() > 0) {
            ZipfDistribution ranks = new ZipfDistribution(new Well19937c(seed), cardinality, config.keySkew());
            return record -> field + "-" + (ranks.sample() - 1);
        }
        return record -> field + "-" + bucket(naturalKey(record, field), cardinality);
    }

    private static String naturalKey(GenericRecord record, String field) {
        Object value = record.get(field);
        return value == null ? null : value.toString();
    }

    /** murmur2, as Kafka's partitioner uses, so the bucket is stable across JVMs and versions. */
    private static int bucket(String naturalKey, int cardinality) {
        // a null field value is one more value to bucket, keeping every capped key non-null
        byte[] bytes = String.valueOf(naturalKey).getBytes(StandardCharsets.UTF_8);
        return Utils.toPositive(Utils.murmur2(bytes)) % cardinality;
    }
}
