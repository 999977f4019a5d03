package io.kcscale.scaler.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.scaler.checks.WorkerCpu;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkerCpuMeterTest {

    @Test
    void aWorkerIsNamedByTheHostAndPortItsPropertiesAdvertise(@TempDir Path dir) throws Exception {
        Path advertised = Files.writeString(
                dir.resolve("a.properties"),
                "listeners=http://0.0.0.0:8083\nrest.advertised.host.name=connect-1\nrest.advertised.port=18083\n");
        Path listener = Files.writeString(
                dir.resolve("b.properties"), "listeners=http://127.0.0.1:8084, https://127.0.0.1:8443\n");
        assertEquals(Optional.of("connect-1:18083"), WorkerCpuMeter.advertised(advertised));
        assertEquals(Optional.of("127.0.0.1:8084"), WorkerCpuMeter.advertised(listener));
        assertEquals(Optional.empty(), WorkerCpuMeter.advertised(dir.resolve("gone.properties")));
        assertEquals(
                Optional.empty(),
                WorkerCpuMeter.advertised(Files.writeString(dir.resolve("c.properties"), "group.id=x\n")));
    }

    @Test
    void findsAWorkerWhoseCommandLineIsLongerThanTheJdkGivesArgumentsFor(@TempDir Path dir) throws Exception {
        Path properties = Files.writeString(dir.resolve("worker.properties"), "listeners=http://127.0.0.1:18098\n");
        // a Connect worker's classpath runs to kilobytes: past a page, the JDK gives no arguments on Linux
        String classpath = "/lib/some.jar:".repeat(700);
        Process worker = new ProcessBuilder(
                        "sh",
                        "-c",
                        "while :; do :; done",
                        "-cp",
                        classpath,
                        "org.apache.kafka.connect.cli.ConnectDistributed",
                        properties.toString())
                .start();
        try {
            List<String> args = List.of(WorkerCpuMeter.arguments(worker.toHandle()));
            assertEquals(
                    List.of(
                            "-c",
                            "while :; do :; done",
                            "-cp",
                            classpath,
                            "org.apache.kafka.connect.cli.ConnectDistributed",
                            properties.toString()),
                    args);
            WorkerCpuMeter.Result read = new WorkerCpuMeter().read(List.of("127.0.0.1:18098"));
            assertEquals(1, read.workers().size(), String.valueOf(read));
        } finally {
            worker.destroyForcibly().waitFor();
        }
    }

    @Test
    void readsTheCpuOfAProcessRunningAsAWorkerOnThisHost(@TempDir Path dir) throws Exception {
        Path properties = Files.writeString(dir.resolve("worker.properties"), "listeners=http://127.0.0.1:18099\n");
        // a busy loop whose arguments are a worker's: the meter finds processes by them, as it finds ConnectDistributed
        Process worker = new ProcessBuilder(
                        "sh",
                        "-c",
                        "while :; do :; done",
                        "org.apache.kafka.connect.cli.ConnectDistributed",
                        properties.toString())
                .start();
        try {
            WorkerCpuMeter meter = new WorkerCpuMeter();
            WorkerCpuMeter.Result read = meter.read(List.of("127.0.0.1:18099", "10.9.9.9:8083"));
            assertEquals(1, read.workers().size(), String.valueOf(read));
            WorkerCpu cpu = read.workers().get(0);
            assertEquals("127.0.0.1:18099", cpu.workerId());
            assertTrue(
                    cpu.processCores() > 0 && cpu.processCores() <= cpu.hostProcessors() + 0.1,
                    "cores " + cpu.processCores());
            assertEquals(Runtime.getRuntime().availableProcessors(), cpu.hostProcessors());
            // over the same interval the host was busy at least with the loop's share of it
            assertTrue(cpu.hostBusyRead() && cpu.hostBusy() > 0 && cpu.hostBusy() <= 1, "host busy " + cpu.hostBusy());
            assertTrue(cpu.shareOfHostUse() > 0, "share of the host's use " + cpu.shareOfHostUse());
            assertEquals("not on the scaler's host: [10.9.9.9:8083]", read.unavailable());
        } finally {
            worker.destroyForcibly().waitFor();
        }
        WorkerCpuMeter.Result none = new WorkerCpuMeter().read(List.of("127.0.0.1:18099"));
        assertNull(none.workers());
        assertEquals(
                "no worker of [127.0.0.1:18099] runs on the scaler's host, where it reads processes",
                none.unavailable());
    }

    @Test
    void theFirstReadingOfSeveralWorkersReadsEveryOne(@TempDir Path dir) throws Exception {
        Path first = Files.writeString(dir.resolve("w1.properties"), "listeners=http://127.0.0.1:18097\n");
        Path second = Files.writeString(dir.resolve("w2.properties"), "listeners=http://127.0.0.1:18098\n");
        Process one = new ProcessBuilder(
                        "sh",
                        "-c",
                        "while :; do :; done",
                        "org.apache.kafka.connect.cli.ConnectDistributed",
                        first.toString())
                .start();
        Process two = new ProcessBuilder(
                        "sh",
                        "-c",
                        "while :; do :; done",
                        "org.apache.kafka.connect.cli.ConnectDistributed",
                        second.toString())
                .start();
        try {
            WorkerCpuMeter.Result read = new WorkerCpuMeter().read(List.of("127.0.0.1:18097", "127.0.0.1:18098"));
            assertEquals(
                    List.of("127.0.0.1:18097", "127.0.0.1:18098"),
                    read.workers().stream().map(WorkerCpu::workerId).toList(),
                    String.valueOf(read));
        } finally {
            one.destroyForcibly().waitFor();
            two.destroyForcibly().waitFor();
        }
    }
}
