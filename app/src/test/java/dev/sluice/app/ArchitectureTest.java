package dev.sluice.app;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The engine import rules of ../shared/STYLE.md, checked over every Sluice module on this
 * classpath: each engine only where it is allowed, and the domain modules free of Spring.
 */
class ArchitectureTest {

    private static final JavaClasses SLUICE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("dev.sluice");

    @Test
    void sparkAndDeequOnlyInTheQualityEngine() {
        noClasses().that().resideOutsideOfPackage("dev.sluice.quality.internal.deequ..")
                .should().dependOnClassesThat().resideInAnyPackage("org.apache.spark..", "com.amazon.deequ..", "scala..")
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
}
