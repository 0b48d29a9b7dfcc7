package dev.sluice.app;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.sluice.engine.LayerEngine;
import dev.sluice.engine.LayerEngines;
import dev.sluice.batch.gate.GateStep;
import dev.sluice.batch.job.MedallionJobFactory;
import dev.sluice.batch.job.PipelineRunner;
import org.junit.jupiter.api.Test;

/**
 * The engine import rules of ../shared/STYLE.md and the module boundaries of docs/modules.md,
 * checked over every Sluice module on this classpath: each engine only where it is allowed, the
 * domain modules free of Spring, each module used only by the modules above it, the lineage store
 * and the operations module only where they belong, and the layer engines behind their seam.
 */
class ArchitectureTest {

    /** Main classes only: neither this module's tests nor the test kit of batch-jobs' test jar. */
    private static final JavaClasses SLUICE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(location -> !location.contains("-tests.jar"))
            .importPackages("dev.sluice");

    @Test
    void sparkOnlyInTheSessionBuilderTheGatesAndTheLakehouseEngineDeequOnlyInTheGates() {
        noClasses().that().resideOutsideOfPackages("dev.sluice.quality.internal.deequ..", "dev.sluice.spark..",
                        "dev.sluice.engine.lakehouse..")
                .should().dependOnClassesThat().resideInAnyPackage("org.apache.spark..", "scala..")
                .allowEmptyShould(true).check(SLUICE);
        noClasses().that().resideOutsideOfPackage("dev.sluice.quality.internal.deequ..")
                .should().dependOnClassesThat().resideInAnyPackage("com.amazon.deequ..")
                .allowEmptyShould(true).check(SLUICE);
    }

    /**
     * One class builds a SparkSession ({@code dev.sluice.spark.SparkSessions}: Iceberg's session
     * extensions must be set before the session is built); Iceberg's API is the lakehouse engine's.
     */
    @Test
    void oneSessionBuilderAndIcebergOnlyInTheLakehouseEngine() {
        noClasses().that().resideOutsideOfPackage("dev.sluice.spark..")
                .should().callMethod(org.apache.spark.sql.SparkSession.class, "builder")
                .allowEmptyShould(true).check(SLUICE);
        noClasses().that().resideOutsideOfPackage("dev.sluice.engine.lakehouse..")
                .should().dependOnClassesThat().resideInAnyPackage("org.apache.iceberg..")
                .allowEmptyShould(true).check(SLUICE);
    }

    @Test
    void openLineageClientOnlyInTheLineageEngine() {
        noClasses().that().resideOutsideOfPackage("dev.sluice.lineage.internal.openlineage..")
                .should().dependOnClassesThat().resideInAnyPackage("io.openlineage..")
                .allowEmptyShould(true).check(SLUICE);
    }

    @Test
    void quartzOnlyInTheScheduler() {
        noClasses().that().resideOutsideOfPackage("dev.sluice.app.schedule..")
                .should().dependOnClassesThat().resideInAnyPackage("org.quartz..")
                .allowEmptyShould(true).check(SLUICE);
    }

    @Test
    void kafkaClientsOnlyInTheKafkaAdapters() {
        noClasses().that().resideOutsideOfPackages("dev.sluice.hotpath.internal.kafka..",
                        "dev.sluice.lineage.internal.kafka..", "dev.sluice.kafkadev..", "dev.sluice.bench..")
                .should().dependOnClassesThat().resideInAnyPackage("org.apache.kafka..")
                .allowEmptyShould(true).check(SLUICE);
    }

    @Test
    void coreAndConfigStayFreeOfFrameworks() {
        noClasses().that().resideInAnyPackage("dev.sluice.core..", "dev.sluice.config..")
                .should().dependOnClassesThat().resideInAnyPackage("org.springframework..", "org.jooq..", "org.apache..")
                .check(SLUICE);
    }

    @Test
    void modulesAreUsedOnlyByTheModulesAboveThem() {
        layeredArchitecture().consideringOnlyDependenciesInAnyPackage("dev.sluice..")
                .layer("core").definedBy("dev.sluice.core..")
                .layer("formats").definedBy("dev.sluice.formats..")
                .layer("config").definedBy("dev.sluice.config..")
                .layer("warehouse").definedBy("dev.sluice.warehouse..")
                .layer("spark").definedBy("dev.sluice.spark..")
                .layer("quality").definedBy("dev.sluice.quality..")
                .layer("lineage").definedBy("dev.sluice.lineage..")
                .layer("sample-data").definedBy("dev.sluice.sampledata..")
                .layer("control").definedBy("dev.sluice.control..")
                .layer("engine-api").definedBy("dev.sluice.engine")
                .layer("engine-warehouse").definedBy("dev.sluice.engine.warehouse..")
                .layer("engine-lakehouse").definedBy("dev.sluice.engine.lakehouse..")
                .layer("batch-jobs").definedBy("dev.sluice.batch..")
                .layer("operations").definedBy("dev.sluice.operations..")
                .layer("hot-path").definedBy("dev.sluice.hotpath..")
                .layer("app").definedBy("dev.sluice.app..")
                .whereLayer("app").mayNotBeAccessedByAnyLayer()
                .whereLayer("operations").mayOnlyBeAccessedByLayers("app")
                .whereLayer("hot-path").mayOnlyBeAccessedByLayers("app")
                .whereLayer("batch-jobs").mayOnlyBeAccessedByLayers("operations", "app")
                // the engines are found by name (ServiceLoader): no module names their classes, nor one engine the other's
                .whereLayer("engine-warehouse").mayNotBeAccessedByAnyLayer()
                .whereLayer("engine-lakehouse").mayNotBeAccessedByAnyLayer()
                .whereLayer("engine-api").mayOnlyBeAccessedByLayers("engine-warehouse", "engine-lakehouse", "batch-jobs", "operations",
                        "app")
                .whereLayer("control").mayOnlyBeAccessedByLayers("engine-api", "engine-warehouse", "engine-lakehouse", "batch-jobs",
                        "operations", "app")
                .whereLayer("sample-data").mayOnlyBeAccessedByLayers("app")
                .whereLayer("lineage").mayOnlyBeAccessedByLayers("batch-jobs", "operations", "app")
                .whereLayer("quality").mayOnlyBeAccessedByLayers("control", "engine-api", "engine-warehouse", "engine-lakehouse",
                        "batch-jobs", "operations", "app")
                .whereLayer("warehouse").mayOnlyBeAccessedByLayers("lineage", "control", "engine-api", "engine-warehouse",
                        "engine-lakehouse", "batch-jobs", "operations", "hot-path", "app")
                .whereLayer("config").mayOnlyBeAccessedByLayers("warehouse", "quality", "lineage", "control", "engine-api",
                        "engine-warehouse", "engine-lakehouse", "batch-jobs", "operations", "hot-path", "app")
                .whereLayer("formats").mayOnlyBeAccessedByLayers("sample-data", "batch-jobs", "app")
                .whereLayer("spark").mayOnlyBeAccessedByLayers("quality", "engine-lakehouse", "batch-jobs", "app")
                .check(SLUICE);
    }

    @Test
    void theLineageStoreIsReadByTheEngineTheOperationsAndTheCommandsOnly() {
        noClasses().that().resideOutsideOfPackages("dev.sluice.lineage..", "dev.sluice.batch.job..", "dev.sluice.batch.backfill..",
                        "dev.sluice.operations..", "dev.sluice.app..", "dev.sluice.bench..")
                .should().dependOnClassesThat().resideInAPackage("dev.sluice.lineage.store..")
                .check(SLUICE);
    }

    @Test
    void theJobEngineKnowsNothingOfWhatFollowsItsRuns() {
        // alerts hear of runs through RunListener: the engine never calls operations
        noClasses().that().resideInAPackage("dev.sluice.batch..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.sluice.operations..", "dev.sluice.sampledata..", "dev.sluice.app..")
                .check(SLUICE);
    }

    @Test
    void jobsGatesAndBackfillsKnowTheLayerEngineInterfaceOnly() {
        noClasses().that().resideInAnyPackage("dev.sluice.batch.job..", "dev.sluice.batch.gate..", "dev.sluice.batch.backfill..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.sluice.engine.warehouse..", "dev.sluice.engine.lakehouse..")
                .check(SLUICE);
        // the classes that build, run and gate a partition's job reach the data plane through the seam
        classes().that().haveFullyQualifiedName(MedallionJobFactory.class.getName())
                .or().haveFullyQualifiedName(PipelineRunner.class.getName())
                .or().haveFullyQualifiedName(GateStep.class.getName())
                .should().dependOnClassesThat().belongToAnyOf(LayerEngine.class, LayerEngines.class)
                .check(SLUICE);
    }
}
