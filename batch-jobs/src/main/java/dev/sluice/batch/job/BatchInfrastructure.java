package dev.sluice.batch.job;

import dev.sluice.core.SluiceException;
import dev.sluice.warehouse.Warehouse;
import org.springframework.batch.core.configuration.support.MapJobRegistry;
import org.springframework.batch.core.launch.JobOperator;
import org.springframework.batch.core.launch.support.JobOperatorFactoryBean;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.repository.support.JdbcJobRepositoryFactoryBean;
import org.springframework.transaction.annotation.Isolation;

/**
 * Spring Batch's job repository (tables {@code sluice.BATCH_*}, created by Sluice's Flyway
 * migrations) and a synchronous job operator on a warehouse. Thread-safe.
 *
 * <p>Job executions are created at READ_COMMITTED, not Spring Batch's default SERIALIZABLE: a
 * backfill's workers create job instances at the same moment, and PostgreSQL aborts one of two
 * such SERIALIZABLE transactions at commit ("could not serialize access due to read/write
 * dependencies"), which failed the partition's start. The Spring Batch reference ("Transaction
 * Configuration for the JobRepository") names READ_COMMITTED as usually working equally well; two
 * starts of the same job instance still cannot both succeed, as the unique constraint
 * {@code JOB_INST_UN (JOB_NAME, JOB_KEY)} refuses the second insert.
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
            repo.setIsolationLevelForCreateEnum(Isolation.READ_COMMITTED);
            repo.afterPropertiesSet();
            JobRepository repository = repo.getObject();
            JobOperatorFactoryBean op = new JobOperatorFactoryBean();
            op.setJobRepository(repository);
            op.setTransactionManager(warehouse.transactionManager());
            op.setJobRegistry(new MapJobRegistry());
            op.afterPropertiesSet();
            return new BatchInfrastructure(repository, op.getObject());
        } catch (Exception e) {
            throw new SluiceException("cannot set up Spring Batch on the warehouse: " + e.getMessage(), e);
        }
    }
}
