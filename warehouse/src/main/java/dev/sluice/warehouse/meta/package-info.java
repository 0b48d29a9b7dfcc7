/**
 * The {@code sluice.*} tables that modules which do not depend on each other share (batch and hot
 * path, job engine and operations, scheduler and purge): each class owns one table's name. Tables
 * used within one module are owned by that module's repository class.
 */
@NullMarked
package dev.sluice.warehouse.meta;

import org.jspecify.annotations.NullMarked;
