package io.kcscale.tests.compose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.local.InstallLayout;
import io.kcscale.local.LocalStack;
import io.kcscale.local.StackOptions;
import io.kcscale.tests.fixtures.Commands;
import io.kcscale.tests.fixtures.RepositoryFiles;
import io.kcscale.tests.fixtures.SharedStack;
import io.kcscale.tests.fixtures.StackProbe;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The compose stack's one-shot init (compose/bin/init-pipeline), run against the real shared stack
 * in place of its containers: it leaves the existing topic and index as they are, and PUTs connector
 * configs equal to those the launcher renders from the same configs/ templates. The image's
 * kafka-topics.sh is stood in for by the same TopicCommand on the launcher's Kafka classpath.
 */
@Order(8)
@ExtendWith(SharedStack.class)
class InitPipelineScriptTest {

    @Test
    void configuresThePipelineAsTheLauncherDoes(LocalStack stack, @TempDir Path kafkaHome) throws Exception {
        Path home = RepositoryFiles.home();
        Path topics = Files.createDirectories(kafkaHome.resolve("bin")).resolve("kafka-topics.sh");
        Files.writeString(
                topics,
                "#!/bin/sh\nexec '" + Path.of(System.getProperty("java.home"), "bin", "java") + "' -cp '"
                        + new InstallLayout(home).kafkaClasspath() + "' org.apache.kafka.tools.TopicCommand \"$@\"\n");
        assertTrue(topics.toFile().setExecutable(true));
        try (StackProbe probe = new StackProbe(stack)) {
            StackOptions options = stack.options();
            Map<String, String> env = new HashMap<>(Map.of(
                    "KCSCALE_CONFIGS",
                    home.resolve("configs").toString(),
                    "KAFKA_HOME",
                    kafkaHome.toString(),
                    "KAFKA_BOOTSTRAP",
                    stack.endpoints().kafkaBootstrap(),
                    "CONNECT_URL",
                    stack.endpoints().connectUrl().toString(),
                    "ELASTICSEARCH_URL",
                    stack.endpoints().elasticsearchUrl().toString(),
                    "ES_HOST_PORT",
                    stack.endpoints().elasticsearchUrl().getHost() + ":"
                            + stack.endpoints().elasticsearchUrl().getPort()));
            env.putAll(Map.of(
                    "TOPIC",
                    StackOptions.TOPIC,
                    "INDEX",
                    StackOptions.INDEX,
                    "PARTITIONS",
                    String.valueOf(options.partitions()),
                    "SHARDS",
                    String.valueOf(options.shards()),
                    "REPLICAS",
                    "0",
                    "KEY_FIELD",
                    options.keyField(),
                    "RATE_PER_TASK",
                    "300",
                    "ITERATIONS",
                    "-1",
                    // the task count earlier tests left: the init must not be what changes it
                    "SINK_TASKS",
                    probe.connect.connectorConfig(StackOptions.SINK_CONNECTOR).get("tasks.max"),
                    "SINK_CONFIG",
                    options.sinkMode().template()));

            Commands.Result init = Commands.run(
                    home,
                    Duration.ofMinutes(3),
                    env,
                    List.of("bash", home.resolve("compose/bin/init-pipeline").toString()));
            assertEquals(0, init.exit(), init.output());
            assertTrue(init.output().contains("init: done"), init.output());

            assertEquals(
                    options.partitions(),
                    probe.kafka.partitionCount(StackOptions.TOPIC),
                    "the topic is left as it was");
            assertEquals(
                    stack.connectorConfig("stocks-datagen.json", env),
                    withoutName(probe.connect.connectorConfig(StackOptions.SOURCE_CONNECTOR)));
            assertEquals(
                    stack.connectorConfig(options.sinkMode().template(), env),
                    withoutName(probe.connect.connectorConfig(StackOptions.SINK_CONNECTOR)));
        }
    }

    /** Connect adds the connector's name to the config it stores. */
    private static Map<String, String> withoutName(Map<String, String> config) {
        Map<String, String> copy = new HashMap<>(config);
        copy.remove("name");
        return copy;
    }
}
