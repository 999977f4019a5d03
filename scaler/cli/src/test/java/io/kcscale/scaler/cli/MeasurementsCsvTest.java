package io.kcscale.scaler.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kcscale.scaler.input.InvalidInputException;
import io.kcscale.scaler.predict.Measurement;
import java.util.List;
import org.junit.jupiter.api.Test;

class MeasurementsCsvTest {

    private static final List<Measurement> POINTS = List.of(new Measurement(1.0, 70.0), new Measurement(3.0, 205.5));

    @Test
    void namedColumnsInAnyOrder() {
        assertEquals(POINTS, MeasurementsCsv.parse("throughput,tasks\n70,1\n205.5,3\n"));
        assertEquals(POINTS, MeasurementsCsv.parse("run,Tasks,p99,Sustained Rate\na,1,9,70\nb,3,12,205.5\n"));
        assertEquals(POINTS, MeasurementsCsv.parse("\"tasks\",\"sustainedRate\"\r\n1,70\r\n3,205.5\r\n"));
    }

    @Test
    void withoutNamesTheFirstTwoNumericColumnsAreTasksAndThroughput() {
        assertEquals(POINTS, MeasurementsCsv.parse("1,70\n3,205.5\n"));
        assertEquals(POINTS, MeasurementsCsv.parse("experiment,n,rate,latency\nbaseline,1,70,15\nthree,3,205.5,18\n"));
        assertEquals(POINTS, MeasurementsCsv.parse("# from experiments/results\n\ntasks,x\n1,70\n\n3,205.5\n"));
    }

    @Test
    void errorsNameTheFieldAndLine() {
        InvalidInputException empty =
                assertThrows(InvalidInputException.class, () -> MeasurementsCsv.parse("tasks,throughput\n"));
        assertEquals("measurements file holds no measurements", empty.getMessage());
        InvalidInputException text = assertThrows(
                InvalidInputException.class, () -> MeasurementsCsv.parse("tasks,throughput\n1,70\n2,fast\n"));
        assertEquals("measurements line 3: column 2 must be a number, got 'fast'", text.getMessage());
        InvalidInputException oneColumn =
                assertThrows(InvalidInputException.class, () -> MeasurementsCsv.parse("name,rate\na,70\n"));
        assertEquals("measurements", oneColumn.field());
        InvalidInputException shortRow =
                assertThrows(InvalidInputException.class, () -> MeasurementsCsv.parse("tasks,throughput\n1,70\n2\n"));
        assertEquals("measurements line 3: column 2 must be a number, got ''", shortRow.getMessage());
    }

    @Test
    void aValueOutOfRangeIsNamedByItsLineAndColumnNotItsPlaceAmongThePoints() {
        InvalidInputException zeroTasks = assertThrows(
                InvalidInputException.class, () -> MeasurementsCsv.parse("# sweep\nrun,tasks,throughput\na,0,70\n"));
        assertEquals(
                "measurements line 3: column 2 (tasks) must be a whole number from 1 to 2,147,483,647, got 0",
                zeroTasks.getMessage());
        InvalidInputException negative = assertThrows(
                InvalidInputException.class, () -> MeasurementsCsv.parse("tasks,throughput\n1,70\n2,-5\n"));
        assertEquals(
                "measurements line 3: column 2 (throughput) must be greater than 0, got -5", negative.getMessage());
    }
}
