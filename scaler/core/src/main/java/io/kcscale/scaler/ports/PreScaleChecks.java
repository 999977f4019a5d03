package io.kcscale.scaler.ports;

import io.kcscale.scaler.checks.Finding;
import io.kcscale.scaler.model.PipelineSnapshot;
import java.util.List;

/** The scaling checks a scale runs first, for the task count it asks for. */
@FunctionalInterface
public interface PreScaleChecks {

    List<Finding> findings(PipelineSnapshot snapshot, int tasksWanted);
}
