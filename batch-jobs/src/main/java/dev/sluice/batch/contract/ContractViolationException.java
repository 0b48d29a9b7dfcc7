package dev.sluice.batch.contract;

import dev.sluice.config.SchemaChange;
import dev.sluice.core.BadInputException;

/** A landed file whose columns its contract refuses; nothing of the partition was written. */
public class ContractViolationException extends BadInputException {

    public ContractViolationException(String file, String contract, SchemaChange change) {
        super(file, -1, change.column(), "refused by contract " + contract + ": " + change.describe()
                + "; nothing of the partition was written");
    }
}
