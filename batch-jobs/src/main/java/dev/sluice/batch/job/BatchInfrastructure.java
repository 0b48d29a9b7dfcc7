package dev.sluice.batch.job;

import dev.sluice.warehouse.Warehouse;
import dev.sluice.core.SluiceException;
import org.springframework.batch.core.launch.JobOperator;
import org.springframework.batch.core.launch.support.JobOperatorFactoryBean;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.repository.support.JdbcJobRepositoryFactoryBean;

/**
 * Spring Batch's job repository (tables {@code sluice.BATCH_*}, created by Sluice's Flyway
 * migrations) and a synchronous job operator on a warehouse. Thread-safe.
 *
 * @param repository the job repository
 * @param operator runs jobs in the calling thread
 */
public record BatchInfrastructure(JobRepository repository, JobOperator operator) {

    /** Spring Batch's table prefix: its tables live in Sluice's metadata schema. */
    public static final String TABLE_PREFIX = Warehouse.METADATA_SCHEMA + ".BATCH_";

    /** Builds the repository and operator on {@code warehouse}. */
    public static BatchInfrastructure on(Warehouse warehouse) {
        try {
            JdbcJobRepositoryFactoryBean repo = new JdbcJobRepositoryFactoryBean();
            repo.setDataSource(warehouse.dataSource());
            repo.setTransactionManager(warehouse.transactionManager());
            repo.setTablePrefix(TABLE_PREFIX);
            repo.setDatabaseType(warehouse.isPostgres() ? "POSTGRES" : "H2");
            repo.afterPropertiesSet();
            JobRepository repository = repo.getObject();
            JobOperatorFactoryBean op = new JobOperatorFactoryBean();
            op.setJobRepository(repository);
            op.setTransactionManager(warehouse.transactionManager());
            op.setJobRegistry(new org.springframework.batch.core.configuration.support.MapJobRegistry());
            op.afterPropertiesSet();
            return new BatchInfrastructure(repository, op.getObject());
        } catch (Exception e) {
            throw new SluiceException("cannot set up Spring Batch on the warehouse: " + e.getMessage(), e);
        }
    }
}
